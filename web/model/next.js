// What the Model view's model writes next: the guesses after a position at
// the learner's temperature (the core's tempered guesses: what Generate
// samples from, with the model's own beside them), and Generate itself.
// Functions of the view (view.js keeps one-line delegates).
import { ModelError } from '../engine/model-client.js';
import { labelsOf, textOf } from './tokens.js';

// The guesses after position t (null: the last one), at the temperature.
export function showGuesses(view, t) {
  if (!view.result) return;
  const T = view.result.tokens.length;
  const at = t ?? T - 1;
  const { k, ids, probabilities, own, temperature } = view.result.tempered;
  const guesses = [];
  for (let n = 0; n < 10 && n < k; n++)
    guesses.push([labelsOf([ids[at * k + n]], view.info, view.tokenizer)[0], probabilities[at * k + n], own[at * k + n]]);
  const label = JSON.stringify(view.labels[at]);
  view.next.draw(guesses, t === null ? `the last token, ${label}` : `token ${at}, ${label}`, temperature);
  view.next.box.dataset.position = String(at);
  view.chips.mark(t);
}

// The guesses again at the slider's temperature: the core's, from the last
// run's logits (no forward). One request at a time: a slider moved while
// one is out asks again once it is back.
export async function retemper(view) {
  if (!view.worker || !view.result || view.tempering) return;
  view.tempering = true;
  const { worker, runs, result } = view;
  try {
    const tempered = await worker.temper(view.temperature.value);
    // the worker's last run is the one drawn unless another was asked for since
    if (worker === view.worker && runs === view.runs && result === view.result) {
      result.tempered = tempered;
      showGuesses(view, view.position);
    }
  } catch (error) {
    if (!(error instanceof ModelError)) throw error;
    if (/^temperature/.test(error.message)) view.temperature.showError(error.message);
    return;
  } finally {
    view.tempering = false;
  }
  if (view.result && view.result.tempered.temperature !== view.temperature.value) await retemper(view);
}

// Generate: 10 tokens sampled after the tokens drawn, appended to the text.
export async function generate(view) {
  if (!view.worker || !view.result) return;
  view.generateButton.disabled = true;
  view.say(view.generateError, '');
  try {
    const added = await view.worker.generate(view.result.tokens, 10, { temperature: view.temperature.value, seed: view.seed++ });
    view.settings.text += await textOf(view, added);
    view.input.value = view.settings.text;
    view.onState(view.settings);
    await view.run();
  } catch (error) {
    if (!(error instanceof ModelError)) throw error;
    // under the field it is about: the temperature's, else Generate's own
    if (/^temperature/.test(error.message)) view.temperature.showError(error.message);
    else view.say(view.generateError, error.message);
  } finally {
    view.generateButton.disabled = false;
  }
}
