// Head scores (lens-v1.md section 1) as a table: a row a head, its four
// scores as the core gave them, and the role it matches best (the largest of
// the four: a choice among the core's numbers, not a computation), named
// only from 0.5: under it the head has no clear role. Any
// column sorts it (its header is a button: keyboard and screen readers reach
// it; aria-sort says the order). A head's name selects it in the Model view;
// its "Ablate" button adds it to the heads ablated and opens that lens. The
// induction score is TransformerLens's, on its own random repeated input,
// shown under the table: not the training view's induction score.
import { tokenText } from '../views/format.js';
import { clearFrom } from '../views/head-role.js';
import { create, element, fixed, headName, headsOf } from './dom.js';

export const roles = [
  ['previous_token', 'previous-token', 'the token just before'],
  ['first_token', 'first-token', 'the first token'],
  ['duplicate_token', 'duplicate-token', 'earlier copies of the same token'],
  ['induction', 'induction (random repeat)', 'the token after an earlier copy, on the random input below'],
];

// The role a head matches best: the key of its largest score (null scores left out), or null.
export function bestRole(head) {
  let best = null;
  for (const [key] of roles) if (head[key] !== null && (best === null || head[key] > head[best])) best = key;
  return best;
}

// A head is named by its best match only from clearFrom (views/head-role.js).
// Under it the head has "no clear role" (its scores are in its row, the
// largest in bold).

// What the table says of a head: its role, or "no clear role".
export function roleText(head) {
  const best = bestRole(head);
  if (best === null) return '—';
  return head[best] >= clearFrom ? roles.find(([key]) => key === best)[1] : 'no clear role';
}

// The role column's order: the roles as listed, then the heads with no clear role.
function roleRank(head) {
  const best = bestRole(head);
  return best !== null && head[best] >= clearFrom ? roles.findIndex(([k]) => k === best) : roles.length;
}

const columns = [['head', 'Head'], ...roles.map(([key, name]) => [key, name]), ['best', 'Role']];

export class ScoresLens {
  constructor(body, panel) {
    this.panel = panel;
    this.about = 'What you see: each row is one head, scored from 0 to 1 by how much of its attention goes where a role looks: '
      + 'previous-token to the token just before, first-token to the first token, duplicate-token to earlier copies of the same token, '
      + 'induction to the token after an earlier copy (on a random sequence repeated twice, below); a head’s role is its largest score’s, named only from 0.5 (half its weight where the role looks); under that it has “no clear role”. '
      + 'What to do: click a column header to sort by it, a head’s name to show it above, or its “Ablate” to switch it off (ablate: replace its output) and see what changes.';
    this.named = null;
    this.sort = { key: 'head', descending: false };
    this.json = null;
    const scroll = element(body, 'div', { className: 'lens-scroll' });
    this.table = element(scroll, 'table', { className: 'lens-table lens-scores-table' });
    element(this.table, 'caption', { className: 'visually-hidden', textContent: 'Head scores on this text' });
    const row = element(element(this.table, 'thead'), 'tr');
    this.headers = columns.map(([key, name]) => {
      const th = element(row, 'th', { scope: 'col' });
      th.dataset.key = key;
      const button = element(th, 'button', { type: 'button', className: 'lens-sort', textContent: name });
      button.addEventListener('click', () => this.sortBy(key));
      return th;
    });
    element(row, 'th', { scope: 'col', textContent: 'Ablate' });
    this.rows = element(this.table, 'tbody');
    this.induction = element(body, 'div', { className: 'lens-induction' });
  }

  request() { return { what: 'scores' }; }

  clear() {
    this.json = null;
    this.rows.textContent = '';
    this.induction.textContent = '';
  }

  // A header clicked: by that column, largest first (the head column: in order); again: the other way.
  sortBy(key) {
    const descending = this.sort.key === key ? !this.sort.descending : key !== 'head';
    this.sort = { key, descending };
    if (this.json) this.draw(this.json, this.panel.view);
    this.headers.find((th) => th.dataset.key === key).querySelector('button').focus();
  }

  draw(json, view) {
    this.json = json;
    const ablated = new Set(headsOf(view.settings.ablate).map(([l, h]) => headName(l, h)));
    const { key, descending } = this.sort;
    const rank = (head) => (key === 'head' ? head.layer * 1e4 + head.head
      : key === 'best' ? roleRank(head) : head[key] ?? -1);
    // the core's order (layer by layer) for ties: a stable sort
    const heads = json.heads.map((head, n) => ({ head, n }))
      .sort((a, b) => (descending ? rank(b.head) - rank(a.head) : rank(a.head) - rank(b.head)) || a.n - b.n)
      .map(({ head }) => head);
    for (const th of this.headers)
      th.setAttribute('aria-sort', th.dataset.key === key ? (descending ? 'descending' : 'ascending') : 'none');
    this.rows.textContent = '';
    for (const head of heads) this.rows.append(this.row(head, ablated.has(headName(head.layer, head.head))));
    this.drawInduction(json.induction_tokens);
  }

  row(head, ablated) {
    const name = headName(head.layer, head.head);
    const tr = create('tr', { attrs: { 'data-head': name } });
    const best = bestRole(head);
    const th = element(tr, 'th', { scope: 'row' });
    const select = element(th, 'button', { type: 'button', className: 'lens-head', textContent: `head ${name}` });
    select.title = `Show layer ${head.layer}, head ${head.head} in the views above`;
    select.addEventListener('click', () => this.panel.selectHead(this, head.layer, head.head, select));
    select.setAttribute('aria-description', 'shows it in the views above');
    for (const [key, roleName] of roles) {
      const td = element(tr, 'td', { className: 'lens-score' });
      td.dataset.key = key;
      td.dataset.value = String(head[key]);
      if (key === best) td.classList.add('lens-best');
      const bar = element(td, 'span', { className: 'lens-score-bar' });
      bar.style.width = `${Math.max(0, Math.min(1, head[key] ?? 0)) * 100}%`;
      element(td, 'span', { className: 'lens-score-value', textContent: fixed(head[key]) });
      if (head[key] === null) td.title = `${roleName}: no token repeats in this text`;
    }
    const weak = best !== null && head[best] < clearFrom;
    const text = roleText(head);
    // on a phone the role also under the head's name: its column is past the screen's edge
    element(th, 'span', { className: `lens-role-under${weak ? ' lens-weak' : ''}`, textContent: text }).setAttribute('aria-hidden', 'true');
    const cell = element(tr, 'td', { className: 'lens-best-role', textContent: text });
    cell.dataset.role = best ?? '';
    cell.dataset.clear = String(best !== null && !weak);
    if (weak) {
      cell.classList.add('lens-weak');
      cell.title = `Its largest score, ${roles.find(([key]) => key === best)[1]} ${fixed(head[best])}, is under ${clearFrom}: less than half its weight goes where any of these roles looks`;
    }
    const ablateCell = element(tr, 'td');
    const ablate = element(ablateCell, 'button', { type: 'button', className: 'lens-ablate-head', textContent: `Ablate ${name}` });
    ablate.setAttribute('aria-pressed', String(ablated));
    // the name begins with what it shows ("Ablate 0.2"), so a voice can say what it sees
    ablate.setAttribute('aria-label', `Ablate ${name} (layer ${head.layer}, head ${head.head})`);
    ablate.addEventListener('click', () => {
      this.panel.toggleHead(head.layer, head.head, { open: true });
      this.panel.focusToggle(head.layer, head.head);  // this tab is hidden now: its button would drop the focus
    });
    return tr;
  }

  // The induction score's own input: n random tokens, then the same n again.
  drawInduction(ids) {
    this.induction.textContent = '';
    const n = ids.length / 2;
    element(this.induction, 'p', { className: 'note', textContent: `Induction (random repeat) is not the training view’s induction score: it is measured on its own input, ${n} random tokens and then the same ${n} again, where a head that attends to the token after the earlier copy scores 1. The input:` });
    const list = element(this.induction, 'p', { className: 'lens-induction-tokens' });
    list.setAttribute('aria-label', `The induction input: ${n} random tokens, then the same again`);
    this.panel.label(ids).forEach((text, i) => {
      const chip = element(list, 'span', { className: `lens-chip${i >= n ? ' lens-chip-repeat' : ''}`, textContent: tokenText(text) });
      chip.dataset.id = String(ids[i]);
    });
  }
}
