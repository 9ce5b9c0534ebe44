// What the Model view's model writes next: the guesses after a position at
// the learner's temperature (the core's tempered guesses: what Generate
// samples from, with the model's own beside them, and which of them top-k
// and top-p keep), and Generate itself. An encoder writes nothing next: its
// panel is fill.js's (BERT's guesses for a [MASK]).
// Functions of the view (view.js keeps one-line delegates).
import { ModelError } from '../engine/model-client.js';
import { element } from '../views/dom.js';
import { tokenText } from '../views/format.js';
import { NextTokens } from '../views/next-tokens.js';
import { showFill } from './fill.js';
import { TemperatureField } from './temperature.js';
import { labelsOf } from './tokens.js';
import { WarperFields } from './warpers.js';

// The panel beside the heads: the bars, the temperature, top-k and top-p,
// Generate and what it does (view.generateBox and view.generateNote: what
// an encoder hides, family.js), and the line of a model with nothing to guess with.
export function buildPanel(view, side, temperature) {
  view.next = new NextTokens(side);
  const generate = view.generateBox = element(side, 'div', { className: 'model-generate' });
  view.temperature = new TemperatureField(generate, { value: temperature, onChange: () => view.sampled() });
  view.warpers = new WarperFields(generate, { onChange: () => view.sampled() });
  const action = element(generate, 'div', { className: 'model-generate-action' });
  view.generateButton = element(action, 'button', { type: 'button', className: 'primary', textContent: 'Generate 10 tokens' });
  view.generateButton.addEventListener('click', () => view.generate());
  view.generateError = element(action, 'p', { className: 'field-error', hidden: true });
  view.generateNote = element(side, 'p', { className: 'note', textContent: 'Generate samples from the bars: the logits divided by the temperature before the softmax, so below 1 the likeliest tokens win more often, above 1 less. Top-k keeps only the k likeliest tokens, top-p the fewest likeliest whose probabilities add up to p; Generate never draws the others.' });
  // an encoder's: why there is no Generate, or no guesses at all (family.js writes it)
  view.encoderNote = element(side, 'p', { className: 'model-encoder-note', hidden: true });
}

// The guesses after position t (null: the last one), at the temperature;
// an encoder's for position t (null: its first [MASK]).
export function showGuesses(view, t) {
  if (!view.result) return;
  if (view.family.mode !== 'next') return showFill(view, t);  // an encoder's (a BERT without its head: none)
  const T = view.result.tokens.length;
  const at = t ?? T - 1;
  const { k, ids, probabilities, own, kept, drawn, remaining, temperature, topK, topP } = view.result.tempered;
  const guesses = [];
  // a kept token's bar is what Generate draws it with (renormalized after the
  // cut); a removed one's is what it had before, dimmed
  for (let n = 0; n < 10 && n < k; n++) {
    const g = at * k + n;
    guesses.push([labelsOf([ids[g]], view.tokenizer)[0], kept[g] ? drawn[g] : probabilities[g], own[g], kept[g] === 1]);
  }
  // the token as its chip shows it (a space as ␣), and whether Generate wrote it
  const label = `${JSON.stringify(tokenText(view.labels[at]))}${view.made?.[at] ? ' (generated)' : ''}`;
  view.next.draw(guesses, t === null ? `the last token, ${label}` : `token ${at}, ${label}`, temperature, cutSentence(view, topK, topP, remaining[at]), at === T - 1);
  view.next.box.dataset.position = String(at);
  view.chips.mark(t);
}

// What top-k and top-p did, in one sentence ('' when both are off).
function cutSentence(view, topK, topP, left) {
  if (topK === 0 && topP === 1) return '';
  const V = view.info.config.vocab;
  const which = [topK ? `top-k ${topK}` : '', topP < 1 ? `top-p ${topP}` : ''].filter(Boolean).join(' and ');
  return `${which[0].toUpperCase()}${which.slice(1)} ${topK && topP < 1 ? 'keep' : 'keeps'} ${left.toLocaleString('en')} of ${V.toLocaleString('en')} tokens: Generate draws only from those, their probabilities scaled up to sum to 1; the others are struck out.`;
}

// Whether the sliders moved since the guesses shown were made.
export function moved(view) {
  if (view.family.mode !== 'next' || !view.result.tempered) return false;  // an encoder has no temperature
  const { temperature, topK, topP } = view.result.tempered;
  return temperature !== view.temperature.value || topK !== view.warpers.topK || topP !== view.warpers.topP;
}

// The guesses again at the slider's temperature: the core's, from the last
// run's logits (no forward). One request at a time: a slider moved while
// one is out asks again once it is back.
export async function retemper(view) {
  if (!view.worker || !view.result || view.tempering || view.family.mode !== 'next') return;
  view.tempering = true;
  const { worker, runs, result } = view;
  try {
    const tempered = await worker.temper(view.temperature.value, view.warpers.value);
    // the worker's last run is the one drawn unless another was asked for since
    if (worker === view.worker && runs === view.runs && result === view.result) {
      result.tempered = tempered;
      showGuesses(view, view.position);
    }
  } catch (error) {
    if (!(error instanceof ModelError)) throw error;
    if (/^temperature/.test(error.message)) view.temperature.showError(error.message);
    else if (/^top_[kp]/.test(error.message)) view.warpers.showError(error.message);
    return;
  } finally {
    view.tempering = false;
  }
  if (view.result && moved(view)) await retemper(view);
}

// Generate: 10 tokens sampled after the tokens drawn, appended to the text
// and marked as Generate's (generated.js): the model then runs on them as drawn.
export async function generate(view) {
  if (!view.worker || !view.result || view.family.mode !== 'next' || view.generating) return;
  // busy, but focusable still: a disabled button dropped the keyboard's focus to the page
  view.generating = true;
  view.generateButton.setAttribute('aria-disabled', 'true');
  view.say(view.generateError, '');
  try {
    const added = await view.worker.generate(view.result.tokens, 10, { temperature: view.temperature.value, seed: view.seed++, ...view.warpers.value });
    const text = await view.tokenizer.decode(added, view.result.tokens);
    view.generated.added(added, text);
    view.settings.text += text;
    view.input.value = view.settings.text;
    view.onState(view.settings);
    await view.run();
  } catch (error) {
    if (!(error instanceof ModelError)) throw error;
    // under the field it is about: the temperature's, top-k's or top-p's, else Generate's own
    if (/^temperature/.test(error.message)) view.temperature.showError(error.message);
    else if (/^top_[kp]/.test(error.message)) view.warpers.showError(error.message);
    else view.say(view.generateError, error.message);
  } finally {
    view.generating = false;
    view.generateButton.removeAttribute('aria-disabled');
  }
}
