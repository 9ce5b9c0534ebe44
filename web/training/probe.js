// Under the heads: what the model predicts on the probe (or the learner's
// own sequence). A toy task's table of tokens, targets and predictions, right
// and wrong marked; a text task's characters with, under each, the model's
// most probable next characters and their probabilities, as the core
// computed them (core/tensor/top.hpp). Built with textContent only, and
// while a model trains, its cells rewritten in place rather than rebuilt.
import { labelsOf, percent } from './labels.js';

const guessesShown = 3;

// The table's rows: [{name, cells: [{text, mark, guess: [token, probability]?}]}].
function rowsOf({ tokens, targets, shown, info }) {
  const text = Boolean(info.vocab_chars);
  const label = (id) => labelsOf([id], info)[0];
  const markOf = (id, i) => (!targets ? '' : targets[i] < 0 ? 'unscored' : id === targets[i] ? 'right' : 'wrong');
  const rows = [{ name: text ? 'text' : 'token', cells: labelsOf(tokens, info).map((t) => ({ text: t, mark: '' })) }];
  if (targets) rows.push({ name: text ? 'next' : 'target', cells: targets.map((t) => ({ text: t < 0 ? '' : label(t), mark: '' })) });
  if (shown.top) {
    // each position's guesses, most probable first; only the right one is
    // marked: a wall of "wrong" says nothing a character model does not expect
    for (let k = 0; k < Math.min(guessesShown, shown.top[0]?.length ?? 0); k++)
      rows.push({ name: `guess ${k + 1}`, cells: shown.top.map((g, i) => ({ text: '', mark: markOf(g[k][0], i) === 'right' ? 'right' : '', guess: [label(g[k][0]), g[k][1]] })) });
  } else rows.push({ name: 'predicted next', cells: shown.predictions.map((p, i) => ({ text: label(p), mark: markOf(p, i) })) });
  return rows;
}

function fill(td, cell) {
  td.className = cell.mark;
  if (!cell.guess) {
    td.textContent = cell.text;
    return;
  }
  const [token, p] = cell.guess;
  if (td.childElementCount !== 2) {
    td.textContent = '';
    td.append(Object.assign(document.createElement('span'), { className: 'guess-token' }),
      Object.assign(document.createElement('span'), { className: 'guess-probability' }));
  }
  td.firstChild.textContent = token;
  td.lastChild.textContent = percent(p);
  td.title = `${percent(p)} that ${token} comes next`;
}

// table: the <table>; tokens, targets (null for the learner's own): ids;
// shown: the evaluation ({predictions, top?}); info: the run's.
export function drawPredictions(table, { tokens, targets, shown, info }) {
  const rows = rowsOf({ tokens, targets, shown, info });
  const same = table.rows.length === rows.length
    && rows.every((row, r) => table.rows[r].cells.length === row.cells.length + 1 && table.rows[r].cells[0].textContent === row.name);
  if (!same) {
    table.textContent = '';
    for (const row of rows) {
      const tr = table.insertRow();
      const th = document.createElement('th');
      th.scope = 'row';
      th.textContent = row.name;
      tr.append(th);
      for (let i = 0; i < row.cells.length; i++) tr.insertCell();
    }
  }
  rows.forEach((row, r) => row.cells.forEach((cell, i) => fill(table.rows[r].cells[i + 1], cell)));
  if (shown.top) table.dataset.guesses = String(shown.top.length);
  else delete table.dataset.guesses;
  if (targets) {
    table.dataset.right = String(shown.predictions.filter((p, i) => targets[i] >= 0 && p === targets[i]).length);
    table.dataset.scored = String(targets.filter((t) => t >= 0).length);
  } else {
    delete table.dataset.right;
    delete table.dataset.scored;
  }
}
