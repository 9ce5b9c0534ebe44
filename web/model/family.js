// What a model's family changes in the Model view (models-v2.md sections 2
// and 3). The engine's info says whether attention is causal, how many
// key/value heads the query heads share, whether an encoder has its
// masked-LM head (and which id is its mask), and the core's facts of the
// family: its name, its mask token and a first sentence. A decoder (GPT-2,
// the Llama family) guesses the next token and generates; an encoder (BERT,
// DistilBERT) reads the text both ways and fills in a [MASK] (fill.js), or,
// without its head, shows its attention only. The heads grid and the graph
// take `causal` and `kvHeads` (views/model-grid.js, views/head-trace.js).
import { create } from '../views/dom.js';

// The family of the model shown before any opens: the page's own GPT.
const shipped = { family: 'gpt2', architecture: 'gpt2', familyName: 'GPT-2', maskToken: '', starter: '' };

// A fact of the info: a string the core gave, or '' (an info without it).
const fact = (info, key) => (typeof info?.[key] === 'string' ? info[key] : '');

// info: the engine's model info (web/engine/README.md; null: none open yet,
// the page's GPT) → {family, name, mask, starter, causal, kvHeads, maskId,
// mode}; family: the core's (gpt2, llama, bert, distilbert, …); name,
// mask and starter: the core's facts of it (familyName, maskToken,
// starter; without a name, the architecture's); mode 'next' (next-token
// bars and Generate), 'fill' (a masked LM's [MASK]) or 'none' (attention only).
export function familyOf(info) {
  info ??= shipped;
  const heads = info.config?.heads ?? 0;
  const causal = info.causal !== false;
  const maskedLm = !causal && info.maskedLm === true;
  const architecture = fact(info, 'architecture') || fact(info, 'family');
  return {
    family: fact(info, 'family') || architecture,
    name: fact(info, 'familyName') || architecture,
    mask: fact(info, 'maskToken'),
    starter: fact(info, 'starter'),
    causal,
    kvHeads: Number.isSafeInteger(info.kvHeads) && info.kvHeads > 0 ? info.kvHeads : heads,
    maskId: maskedLm && Number.isSafeInteger(info.maskId) ? info.maskId : null,
    mode: causal ? 'next' : maskedLm ? 'fill' : 'none',
  };
}

// The starters a masked LM's field was given: the text goes back to the
// default when a model that fills in nothing opens on one of them.
const starters = new Set();

// What a model just opened changes in the view, for the view to apply:
// family (familyOf's); typed: its text is typed ids; text: the text now. →
// {fill: a tokenizer that knows [MASK] (the field asks for a sentence with
// one), placeholder: the field's, text: the text to show (a masked-LM's
// starter sentence in place of the default text, which is no sentence to
// fill in, and back), label: the field's when it fills in (else null),
// line: what kind of model it is ('' for GPT-2)}. The starter and the mask
// token are the family's facts (familyOf).
export function familyView(family, { typed, text, defaultText }) {
  const { mode, maskId, mask, starter } = family;
  // else the field's label is the opening's: text, or ids, whose [MASK] is a number: ids-start.js
  const fill = mode === 'fill' && maskId !== null && !typed;
  let shown = text;
  if (fill && starter && (text === defaultText || !text.trim())) shown = starter;
  else if (mode !== 'fill' && starters.has(text)) shown = defaultText;
  if (fill && starter) starters.add(starter);
  const like = starter ? `, like: ${starter}` : '';
  return {
    fill,
    placeholder: fill ? `a sentence with ${mask}${like}` : '',
    label: fill ? `Type a sentence with ${mask}` : null,
    text: shown,
    line: familyText(family),
  };
}

// The line under the facts that says what kind of model it is, made the
// first time a model opens. → the line.
export function familyLineAfter(facts) {
  const line = create('p', { className: 'model-family' });
  facts.after(line);
  return line;
}

// The page's title for a model of this family ("A real BERT: …").
export function titleOf({ family, name }) {
  return `A real ${family === 'gpt2' ? 'GPT' : name}: every head of every layer`;
}

// What kind of model it is, for a learner who never heard of it ('' for GPT-2, the page's own kind).
function familyText({ family, name, mask, mode }) {
  if (mode === 'fill') return `${name} is an encoder: it reads the whole sentence at once, both ways, and was trained to guess words hidden behind ${mask} from the words on either side.`;
  if (mode === 'none') return `${name} is an encoder: it reads the whole sentence at once, both ways. This one was saved without the head that guesses words, so the page shows its attention only.`;
  if (family === 'gpt2') return '';
  return `${name} is a decoder, as GPT-2 is: each token attends to itself and the tokens before it, and the model guesses the next token.`;
}
