// What a model's family changes in the Model view (models-v2.md sections 2
// and 3). The engine's info says whether attention is causal, how many
// key/value heads the query heads share, and whether a BERT has its
// masked-LM head (and which id is [MASK]). A decoder (GPT-2, the Llama
// family) guesses the next token and generates; an encoder (BERT) reads the
// text both ways and fills in a [MASK] (fill.js), or, without its head,
// shows its attention only. The heads grid and the graph take `causal` and
// `kvHeads` (views/model-grid.js, views/head-trace.js).

// A masked-LM's first text: every word of it is in BERT's vocabulary
export const maskedStarter = 'the cat sat on the [MASK].';

const names = { gpt2: 'GPT-2', llama: 'Llama', mistral: 'Mistral', qwen2: 'Qwen2', bert: 'BERT' };

// info: the engine's model info (web/engine/README.md; null: none open yet,
// a GPT's) → {family, name, causal, kvHeads, maskId, mode}; family 'gpt2',
// 'llama' (llama, mistral, qwen2: `name` says which) or 'bert'; mode 'next'
// (next-token bars and Generate), 'fill' (BERT's [MASK]) or 'none' (attention only).
export function familyOf(info) {
  const heads = info?.config?.heads ?? 0;
  const causal = info?.causal !== false;
  const maskedLm = !causal && info?.maskedLm === true;
  const family = Object.hasOwn(names, info?.family ?? '') ? info.family : 'gpt2';
  return {
    family,
    name: names[Object.hasOwn(names, info?.architecture ?? '') ? info.architecture : family],
    causal,
    kvHeads: Number.isSafeInteger(info?.kvHeads) && info.kvHeads > 0 ? info.kvHeads : heads,
    maskId: maskedLm && Number.isSafeInteger(info.maskId) ? info.maskId : null,
    mode: causal ? 'next' : maskedLm ? 'fill' : 'none',
  };
}

// What a model just opened changes in the view, for the view to apply:
// family (familyOf's); typed: its text is typed ids; text: the text now. →
// {fill: a tokenizer that knows [MASK] (the field asks for a sentence with
// one), placeholder: the field's, text: the text to show (a masked-LM's
// starter sentence in place of the default text, which is no sentence to
// fill in, and back), line: what kind of model it is ('' for GPT-2)}.
export function familyView(family, { typed, text, defaultText }) {
  const { mode, maskId } = family;
  // else the field's label is the opening's: text, or ids, whose [MASK] is a number: ids-start.js
  const fill = mode === 'fill' && maskId !== null && !typed;
  let shown = text;
  if (fill && (text === defaultText || !text.trim())) shown = maskedStarter;
  else if (mode !== 'fill' && text === maskedStarter) shown = defaultText;
  return { fill, placeholder: fill ? `a sentence with [MASK], like: ${maskedStarter}` : '', text: shown, line: familyText(family) };
}

// The line under the facts that says what kind of model it is, made the
// first time a model opens. → the line.
export function familyLineAfter(facts) {
  const line = document.createElement('p');
  line.className = 'model-family';
  facts.after(line);
  return line;
}

// The page's title for a model of this family ("A real BERT: …").
export function titleOf({ family, name }) {
  return `A real ${family === 'gpt2' ? 'GPT' : name}: every head of every layer`;
}

// What kind of model it is, for a learner who never heard of it ('' for GPT-2, the page's own kind).
function familyText({ family, name, mode }) {
  if (mode === 'fill') return 'BERT is an encoder: it reads the whole sentence at once, both ways, and was trained to guess words hidden behind [MASK] from the words on either side.';
  if (mode === 'none') return 'BERT is an encoder: it reads the whole sentence at once, both ways. This one was saved without the head that guesses words, so the page shows its attention only.';
  if (family === 'gpt2') return '';
  return `${name} is a decoder, as GPT-2 is: each token attends to itself and the tokens before it, and the model guesses the next token.`;
}
