// Under the heads: what the model predicts on the probe (or the learner's
// own sequence, typed under it). A toy task's table of tokens, targets and predictions, right
// and wrong marked; a text task's characters with, under each, the model's
// most probable next characters and their probabilities, as the core
// computed them (core/tensor/top.hpp). Built with textContent only, and
// while a model trains, its cells rewritten in place rather than rebuilt.
import { printedText } from '../views/format.js';
import { labelsOf, percent } from './labels.js';
import { element } from './dom.js';

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

// A cell's text and marks, each written only when it changed: a model that
// trains redraws the table a few times a second, mostly with the same text.
function fill(td, cell) {
  for (const mark of ['right', 'wrong', 'unscored']) if (td.classList.contains(mark) !== (cell.mark === mark)) td.classList.toggle(mark, cell.mark === mark);
  if (!cell.guess) {
    if (td.childElementCount || td.textContent !== cell.text) td.textContent = cell.text;
    return;
  }
  const [token, p] = cell.guess;
  if (td.childElementCount !== 2) {
    td.textContent = '';
    element(td, 'span', { className: 'guess-token' });
    element(td, 'span', { className: 'guess-probability' });
  }
  const chance = percent(p);
  if (td.firstChild.textContent !== token) td.firstChild.textContent = token;
  if (td.lastChild.textContent !== chance) td.lastChild.textContent = chance;
  const title = `${chance} that ${token} comes next`;
  if (td.title !== title) td.title = title;
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
      element(tr, 'th', { scope: 'row', text: row.name });
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

// A position the learner points at (null: none): its column, the columns of
// its earlier copies and those of the tokens after them, lit in every row.
// The cells are the core's induction cells of the shown evaluation, so a
// token's copies are the core's reading of the sequence.
export function lightPosition(table, position, induction = []) {
  const after = new Set(induction.filter(([row]) => row === position).map(([, col]) => col));
  const copies = new Set([...after].map((col) => col - 1));
  for (const tr of table.rows)
    for (let c = 1; c < tr.cells.length; c++) {
      const cell = tr.cells[c], k = c - 1;
      cell.classList.toggle('lit-current', k === position);
      cell.classList.toggle('lit-copy', copies.has(k));
      cell.classList.toggle('lit-after', after.has(k));
    }
  if (position === null) delete table.dataset.lit;
  else table.dataset.lit = `${position}|${[...copies].sort((a, b) => a - b).join(',')}|${[...after].sort((a, b) => a - b).join(',')}`;
}


// The section: its title, the table, and the learner's own sequence (token
// ids, or a text task's characters, which go to the core as typed: it
// encodes them and names one outside the vocabulary).
export class ProbeView {
  // onAttend({text} | {tokens}): run the model on the learner's sequence;
  // onBack(): back to the probe; onLight(position | null): a position pointed at
  constructor(root, { onAttend, onBack, onLight }) {
    const box = element(root, 'section', { className: 'training-probe' });
    this.title = element(box, 'h3', { className: 'small-heading', textContent: 'Predictions' });
    this.table = element(box, 'table', { className: 'training-predictions', tabIndex: 0 });
    this.table.setAttribute('aria-label', 'The probe, position by position; arrow keys light a position, its earlier copies and the tokens after them');
    // pointing at a position lights its earlier copies and the tokens after them
    this.table.addEventListener('mouseover', (event) => {
      const cell = event.target.closest('td, th');
      onLight(cell && cell.cellIndex > 0 ? cell.cellIndex - 1 : null);
    });
    this.table.addEventListener('mouseleave', () => onLight(null));
    this.table.addEventListener('keydown', (event) => {
      const T = this.table.rows[0]?.cells.length - 1 || 0;
      const at = this.lit ?? -1;
      const next = event.key === 'ArrowRight' ? Math.min(T - 1, at + 1) : event.key === 'ArrowLeft' ? Math.max(0, at - 1)
        : event.key === 'Home' ? 0 : event.key === 'End' ? T - 1 : event.key === 'Escape' ? null : undefined;
      if (next === undefined) return;
      event.preventDefault();
      onLight(next);
    });
    this.table.addEventListener('blur', () => onLight(null));
    const form = element(box, 'form', { className: 'training-own' });
    const label = element(form, 'label', { className: 'field' });
    this.label = element(label, 'span', { textContent: 'Your own sequence (token ids, spaces between) ' });
    this.input = element(label, 'input', { type: 'text', id: 'train-own', autocomplete: 'off', spellcheck: false });
    this.input.setAttribute('aria-describedby', 'train-own-error');
    element(form, 'button', { type: 'submit', textContent: 'Show its attention' });
    this.back = element(form, 'button', { type: 'button', textContent: 'Back to the probe', hidden: true });
    this.error = element(form, 'span', { className: 'field-error', id: 'train-own-error', hidden: true });
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const message = this.read();
      if (message) onAttend(message);
    });
    this.back.addEventListener('click', () => {
      this.back.hidden = true;
      onBack();
    });
  }

  // A new run: the words and the example for its kind of tokens.
  setRun(info) {
    this.info = info;
    const text = info.task === 'text';
    this.title.textContent = text ? 'What the model guesses comes next, at each character of the probe' : 'Predictions';
    this.label.textContent = text ? `Your own text (1 to ${info.length} characters) ` : 'Your own sequence (token ids, spaces between) ';
    this.input.placeholder = text ? printedText(info.probe.tokens.slice(0, 12).map((t) => info.vocab_chars[t]).join('')) : info.probe.tokens.slice(0, 8).join(' ');
    this.input.maxLength = text ? info.length * 2 : 400;  // the core says how many fit
  }

  // The learner's sequence as a message for the worker, or null (and a line) when its form is wrong.
  read() {
    if (this.info.task === 'text') return { text: this.input.value };
    const parts = this.input.value.trim().split(/[\s,]+/).filter(Boolean);
    const ok = parts.length > 0 && parts.every((p) => /^\d{1,3}$/.test(p));
    if (ok) return { tokens: parts.map(Number) };
    this.refused(`expected token ids 0 to ${this.info.vocab - 1} separated by spaces, at most ${this.info.length}`);
    return null;
  }

  attended() {
    this.back.hidden = false;
    this.error.hidden = true;
    this.input.setAttribute('aria-invalid', 'false');
  }

  // The core's line (or the form's) under the field; what the learner typed stays.
  refused(message) {
    this.error.hidden = false;
    this.error.textContent = message;
    this.input.setAttribute('aria-invalid', 'true');
  }

  draw(what) {
    drawPredictions(this.table, what);
  }

  light(position, induction) {
    this.lit = position;
    lightPosition(this.table, position, induction);
  }
}
