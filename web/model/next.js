// What the Model view's model writes next: the guesses after a position at
// the learner's temperature (the core's tempered guesses: what Generate
// samples from, with the model's own beside them, and which of them top-k
// and top-p keep), and Generate itself. An encoder writes nothing next: its
// panel is fill.js's (BERT's guesses for a [MASK]).
// A component: the view hands it what it shows and gets back what to do.
import { ModelError } from '../engine/model-client.js';
import { element } from '../views/dom.js';
import { tokenText } from '../views/format.js';
import { NextTokens } from '../views/next-tokens.js';
import { showFill } from './fill.js';
import { TemperatureField } from './temperature.js';
import { labelsOf } from './tokens.js';
import { WarperFields } from './warpers.js';

// shown: what the view shows, read and never written: {result (the last
// run), family (family.js), tokenizer (engine/tokenizer.js), labels, made
// (which tokens Generate wrote), info}.
export class NextPanel {
  // side: the section to build in; temperature: the slider's first value;
  // onSampled(): the temperature, top-k or top-p moved; onGenerate(): Generate pressed.
  constructor(side, { temperature, onSampled, onGenerate }) {
    this.next = new NextTokens(side);
    // Generate and what it does: what an encoder hides (adapt)
    this.generateBox = element(side, 'div', { className: 'model-generate' });
    this.temperature = new TemperatureField(this.generateBox, { value: temperature, onChange: onSampled });
    this.warpers = new WarperFields(this.generateBox, { onChange: onSampled });
    const action = element(this.generateBox, 'div', { className: 'model-generate-action' });
    this.generateButton = element(action, 'button', { type: 'button', className: 'primary', textContent: 'Generate 10 tokens' });
    this.generateButton.addEventListener('click', onGenerate);
    this.generateError = element(action, 'p', { className: 'field-error', hidden: true });
    this.generateNote = element(side, 'p', { className: 'note', textContent: 'Generate samples from the bars: the logits divided by the temperature before the softmax, so below 1 the likeliest tokens win more often, above 1 less. Top-k keeps only the k likeliest tokens, top-p the fewest likeliest whose probabilities add up to p; Generate never draws the others.' });
    // an encoder's: why there is no Generate, or no guesses at all
    this.encoderNote = element(side, 'p', { className: 'model-encoder-note', hidden: true });
    this.tempering = false;  // one temper request out at a time
    this.generating = false;
    this.seed = 1;
  }

  // What the sliders ask for: {temperature, topK, topP}.
  get sampling() {
    return { temperature: this.temperature.value, ...this.warpers.value };
  }

  // family (family.js's familyOf): an encoder writes nothing next: no
  // temperature, no Generate, and a line saying why, naming the family.
  adapt({ mode, name, mask }) {
    const encoder = mode !== 'next';
    this.generateBox.hidden = this.generateNote.hidden = encoder;
    this.next.box.hidden = mode === 'none';
    this.encoderNote.hidden = !encoder;
    this.encoderNote.textContent = mode === 'fill'
      ? `No Generate: an encoder does not write text. ${name} reads the whole sentence at once, every token attending to the tokens before and after it, and guesses the hidden word; a GPT writes one token after another, each seeing only the ones before it.`
      : mode === 'none' ? `This ${name} has no masked-LM head to predict with: it shows how its heads attend, and guesses nothing. (Saved with that head, ${name} fills in ${mask || 'a hidden word'}.)` : '';
  }

  // The guesses after position t (null: the last one), at the temperature;
  // an encoder's for position t (null: its first [MASK]). → the position
  // whose chip to mark.
  show(shown, t) {
    if (shown.family.mode !== 'next') return showFill(this.next, shown, t);  // an encoder's (a BERT without its head: none)
    const T = shown.result.tokens.length;
    const at = t ?? T - 1;
    const { k, ids, probabilities, own, kept, drawn, remaining, temperature, topK, topP } = shown.result.tempered;
    const guesses = [];
    // a kept token's bar is what Generate draws it with (renormalized after the
    // cut); a removed one's is what it had before, dimmed
    for (let n = 0; n < 10 && n < k; n++) {
      const g = at * k + n;
      guesses.push([labelsOf([ids[g]], shown.tokenizer)[0], kept[g] ? drawn[g] : probabilities[g], own[g], kept[g] === 1]);
    }
    // the token as its chip shows it (a space as ␣), and whether Generate wrote it
    const label = `${JSON.stringify(tokenText(shown.labels[at]))}${shown.made?.[at] ? ' (generated)' : ''}`;
    this.next.draw(guesses, t === null ? `the last token, ${label}` : `token ${at}, ${label}`, temperature, cutSentence(shown.info.config.vocab, topK, topP, remaining[at]), at === T - 1);
    this.next.box.dataset.position = String(at);
    return t;
  }

  // Whether the sliders moved since the guesses in `result` were made.
  moved({ result, family }) {
    if (family.mode !== 'next' || !result?.tempered) return false;  // an encoder has no temperature
    const { temperature, topK, topP } = result.tempered;
    return temperature !== this.temperature.value || topK !== this.warpers.topK || topP !== this.warpers.topP;
  }

  // The guesses again at the sliders' values: the core's, from the worker's
  // last run's logits (no forward). → them, or null: one is already out (the
  // view asks again once it is back), or the core refused (said under its slider).
  async temper(worker) {
    if (this.tempering) return null;
    this.tempering = true;
    try {
      return await worker.temper(this.temperature.value, this.warpers.value);
    } catch (error) {
      if (!(error instanceof ModelError)) throw error;
      this.showError(error.message, { own: false });
      return null;
    } finally {
      this.tempering = false;
    }
  }

  // Generate: write(sampling) does the work (10 tokens sampled with
  // {temperature, seed, topK, topP}, and the view's run on them). The button
  // is busy until it ends (focusable still: a disabled button dropped the
  // keyboard's focus to the page); a refusal is said under its field.
  async generate(write) {
    if (this.generating) return;
    this.generating = true;
    this.generateButton.setAttribute('aria-disabled', 'true');
    this.showError('');
    try {
      await write({ temperature: this.temperature.value, seed: this.seed++, ...this.warpers.value });
    } catch (error) {
      if (!(error instanceof ModelError)) throw error;
      this.showError(error.message);
    } finally {
      this.generating = false;
      this.generateButton.removeAttribute('aria-disabled');
    }
  }

  // A refusal under the field it is about: the temperature's, top-k's or
  // top-p's, else Generate's own (own: false, none); '' clears Generate's.
  showError(message, { own = true } = {}) {
    if (/^temperature/.test(message)) this.temperature.showError(message);
    else if (/^top_[kp]/.test(message)) this.warpers.showError(message);
    else if (own) {
      this.generateError.textContent = message;
      this.generateError.hidden = !message;
    }
  }
}

// What top-k and top-p did, in one sentence ('' when both are off); V: the vocabulary's size.
function cutSentence(V, topK, topP, left) {
  if (topK === 0 && topP === 1) return '';
  const which = [topK ? `top-k ${topK}` : '', topP < 1 ? `top-p ${topP}` : ''].filter(Boolean).join(' and ');
  return `${which[0].toUpperCase()}${which.slice(1)} ${topK && topP < 1 ? 'keep' : 'keeps'} ${left.toLocaleString('en')} of ${V.toLocaleString('en')} tokens: Generate draws only from those, their probabilities scaled up to sum to 1; the others are struck out.`;
}
