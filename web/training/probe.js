// Under the heads: what the model predicts on the probe (or the learner's
// own sequence). A toy task's table of tokens, targets and predictions, right
// and wrong marked; a text task's characters with, under each, the model's
// most probable next characters and their probabilities, as the core
// computed them (core/tensor/top.hpp). Built with textContent only.
import { labelsOf, percent } from './labels.js';

const guessesShown = 3;

function element(parent, tag, props = {}) {
  const e = document.createElement(tag);
  Object.assign(e, props);
  parent.append(e);
  return e;
}

// table: the <table>; tokens, targets (null for the learner's own): ids;
// shown: the evaluation ({predictions, top?}); info: the run's.
export function drawPredictions(table, { tokens, targets, shown, info }) {
  table.textContent = '';
  const labels = labelsOf(tokens, info);
  const predicted = shown.predictions;
  const row = (name, cells, marks) => {
    const tr = element(table, 'tr');
    element(tr, 'th', { scope: 'row', textContent: name });
    return cells.map((c, i) => {
      const td = element(tr, 'td', { textContent: c });
      if (marks?.[i]) td.className = marks[i];
      return td;
    });
  };
  const markOf = (id, i) => (!targets ? '' : targets[i] < 0 ? 'unscored' : id === targets[i] ? 'right' : 'wrong');
  row(info.vocab_chars ? 'text' : 'token', labels);
  if (targets) row(info.vocab_chars ? 'next' : 'target', targets.map((t) => (t < 0 ? '' : labelsOf([t], info)[0])));
  if (shown.top) {
    // each position's guesses, most probable first; the right one marked
    for (let k = 0; k < Math.min(guessesShown, shown.top[0]?.length ?? 0); k++) {
      // only the right guess is marked: a wall of "wrong" says nothing a character model does not expect
      const cells = row(`guess ${k + 1}`, shown.top.map(() => ''), shown.top.map((g, i) => (markOf(g[k][0], i) === 'right' ? 'right' : '')));
      cells.forEach((td, i) => {
        const [id, p] = shown.top[i][k];
        element(td, 'span', { className: 'guess-token', textContent: labelsOf([id], info)[0] });
        element(td, 'span', { className: 'guess-probability', textContent: percent(p) });
        td.title = `${percent(p)} that ${labelsOf([id], info)[0]} comes next`;
      });
    }
    table.dataset.guesses = String(shown.top.length);
  } else {
    row('predicted next', labelsOf(predicted, info), predicted.map(markOf));
    delete table.dataset.guesses;
  }
  if (targets) {
    table.dataset.right = String(predicted.filter((p, i) => targets[i] >= 0 && p === targets[i]).length);
    table.dataset.scored = String(targets.filter((t) => t >= 0).length);
  } else {
    delete table.dataset.right;
    delete table.dataset.scored;
  }
}
