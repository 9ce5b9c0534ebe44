// Finishing the lecture: the five rungs of Karpathy's "Let's build GPT", from
// a bigram to a GPT, each trained by the core start to end on the same text.
// Their validation curves on one chart, what each rung adds in the lecture's
// words and how much validation loss it buys, and what each one writes.
// The numbers are ladder.json's: scripts/ladder.mjs ran attention-cli train on
// each preset, and tests/training/test_training.cpp checks them against the
// core's own run. Any rung trains live in the training view.
import { printedText } from '../views/format.js';
import { stepChart } from './chart.js';
import { element, prose } from './common.js';

// What each rung adds, in the lecture's words; the dash tells the lines apart without colour.
const rungs = {
  'text-bigram': {
    name: 'A bigram',
    short: 'bigram',
    adds: 'The starting point: each character looks up a guess for the next one from itself (and its position), and no character talks to another.',
    dash: '2 4',
  },
  'text-one-head': {
    name: 'One head of self-attention',
    short: 'one head',
    adds: 'Communication. “Self-attention is a communication mechanism”: each character sends a query, the characters before it answer with keys, and it gathers their values, weighted by how well they match.',
    dash: '8 4',
  },
  'text-four-heads': {
    name: 'Four heads',
    short: 'four heads',
    adds: 'Multiple channels. Four smaller heads run side by side, “multiple independent channels of communication”, each free to look for something else; their outputs are concatenated.',
    dash: '12 3 3 3',
  },
  'text-mlp': {
    name: 'Four heads and an MLP',
    short: '+ MLP',
    adds: 'Computation per token. The characters had looked at each other but had no time “to think on what they found”: a feed-forward layer now works on each position by itself, after the communication.',
    dash: '',
  },
  'text-gpt': {
    name: 'A GPT',
    short: 'GPT',
    adds: 'Depth made trainable. Two blocks, each communication then computation; residual connections (the gradient’s “superhighway”) and LayerNorm are what let a deeper network optimize at all, with biases and GELU as in GPT-2.',
    dash: '',
  },
};

const format = (loss) => loss.toFixed(3);

// What to look for in the GPT's eight attention maps once trained: the
// core's previous-token scores (core/transformer/head_scores.hpp) on the
// training view's probe at the last step, for the preset's seed. The
// shipped model is this run's weights (tests/training checks it), so a
// test reads these numbers back from the core on that model.
const gptHeads = { head: [0, 2], previous: 0.93, next: [0, 1], nextPrevious: 0.6, othersUnder: 0.35 };

function lookFor(parent) {
  const { head, previous, next, nextPrevious, othersUnder } = gptHeads;
  const p = element(parent, 'p', { className: 'lecture-look-for', text:
    `What to look for once it has trained: of its eight attention maps, layer ${head[0]}, head ${head[1]}’s shows a bright line just under the diagonal, `
    + `a previous-token head: each character puts ${previous.toFixed(2)} of its weight, on average, on the one before it `
    + `(layer ${next[0]}, head ${next[1]}: ${nextPrevious.toFixed(2)}; the other six, under ${othersUnder}).` });
  Object.assign(p.dataset, { head: head.join('.'), previous: String(previous), next: next.join('.'), nextPrevious: String(nextPrevious), othersUnder: String(othersUnder) });
}

let cached = null;
function ladder() {
  cached ??= fetch(new URL('./ladder.json', import.meta.url)).then((response) => {
    if (!response.ok) throw new Error(`ladder.json: HTTP ${response.status}`);
    return response.json();
  });
  cached.catch(() => { cached = null; });
  return cached;
}

// One rung's card: what it adds, what it buys, and its samples, evaluation by evaluation.
function card(parent, rung, index, previous, train) {
  const words = rungs[rung.id];
  const box = element(parent, 'article', { className: `lesson-card lecture-rung rung-${index}` });
  box.dataset.rung = rung.id;
  element(box, 'h3', { text: `${index + 1}. ${words.name}` });
  element(box, 'p', { className: 'lecture-adds', text: words.adds });
  const final = rung.evals.at(-1);
  const bought = previous ? previous.evals.at(-1).loss - final.loss : null;
  element(box, 'p', { className: 'lecture-numbers', text:
    `${rung.parameters.toLocaleString('en')} trained weights, ${rung.steps.toLocaleString('en')} steps: validation loss ${format(final.loss)}`
    + (bought === null ? ` (from ${format(rung.evals[0].loss)} at step 0), training loss ${format(rung.train_loss)}.`
      : `, ${bought >= 0 ? `${format(bought)} lower` : `${format(-bought)} higher`} than the rung before; training loss ${format(rung.train_loss)}.`) });
  const label = element(box, 'label', { className: 'field lecture-step' });
  const heading = element(label, 'span');
  const slider = element(label, 'input');
  Object.assign(slider, { type: 'range', min: '0', max: String(rung.evals.length - 1), value: String(rung.evals.length - 1) });
  const text = element(box, 'pre', { className: 'training-sample-text' });
  text.tabIndex = 0;
  const show = () => {
    const e = rung.evals[Number(slider.value)];
    heading.textContent = `What it writes at step ${e.step} (validation loss ${format(e.loss)}) `;
    text.textContent = printedText(e.sample);
    box.dataset.step = String(e.step);
  };
  slider.addEventListener('input', show);
  show();
  if (rung.id === 'text-gpt') lookFor(box);
  const button = element(box, 'button', { text: 'Train this rung live' });
  button.type = 'button';
  button.dataset.train = rung.id;
  button.addEventListener('click', () => train(rung.id));
}

export default {
  id: 'lecture',
  async render(root, { train }) {
    const data = await ladder();
    prose(root, 'Karpathy’s lecture “Let’s build GPT” climbs from a model that barely reads to a transformer that writes. Here are its five rungs, each a small model trained on the same text: 53,587 characters of quotations from and about literature (the fortunes package’s literature file), 32 characters of context, the same seed, optimizer and validation set. Each adds one idea to the one before.');
    prose(root, 'These numbers are the core’s own: every rung trained start to end in C++, the same code that runs in your browser (a test repeats the runs and checks them). Train any rung live below to watch it happen.');
    const chart = element(root, 'figure', { className: 'lesson-figure lecture-chart' });
    element(chart, 'figcaption', { text: 'Validation loss at each evaluation, every 100 steps (lower is better)' });
    stepChart(chart, {
      width: Math.max(320, Math.min(720, chart.clientWidth || 720)),  // its own size: text stays legible on a phone
      title: `Validation loss by step: ${data.rungs.map((r) => `${rungs[r.id].name} ${format(r.evals.at(-1).loss)}`).join(', ')}`,
      xLabel: 'step', yLabel: 'validation loss',
      series: data.rungs.map((r, k) => ({ label: `${k + 1}. ${rungs[r.id].short} ${format(r.evals.at(-1).loss)}`, className: `rung-${k}`, dash: rungs[r.id].dash,
        points: r.evals.map((e) => [e.step, e.loss]) })),
    });
    const last = data.rungs.at(-1);
    const first = data.rungs[0];
    const gap = (r) => r.evals.at(-1).loss - r.train_loss;
    prose(root, `From the bigram’s ${format(first.evals.at(-1).loss)} to the GPT’s ${format(last.evals.at(-1).loss)}: each idea buys some of the distance, and the samples below go from noise to words. The GPT stops at ${last.steps.toLocaleString('en')} steps (the others run 1,500), where its run still agrees with PyTorch’s character for character.`);
    prose(root, `Each card also gives the training loss (the mean over the last 100 steps). The gap between the two grows with the model, from ${format(gap(first))} for the bigram to ${format(gap(last))} for the GPT: 48,228 characters are little text, and a larger model starts to learn them by heart rather than learn to write. The lecture adds dropout against it, and trains on a text twenty times longer.`);
    const cards = element(root, 'div', { className: 'lecture-rungs' });
    data.rungs.forEach((rung, k) => card(cards, rung, k, data.rungs[k - 1] ?? null, train));
  },
};
