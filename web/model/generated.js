// Which of the Model view's tokens the model wrote (Generate) and which the
// learner typed. The text stays the learner's; what Generate wrote is kept
// as groups {start, text, ids}: ids (one, unless a character's bytes span
// several) whose text sits at text.slice(start, start + text.length). The
// model runs on the typed pieces' tokens with the generated ids between them
// as they were drawn (never read again from their text, which a BPE may
// split otherwise), so each position the views show is one the core ran. An
// edit unmarks the groups it touches; the link carries the runs,
// "19_12.45.7-40_3" (where each starts in the text, its ids; state.js checks
// the form), checked against the text once the model is open.
import { create, element } from '../views/dom.js';

// ids in all a link may mark: the text holds 400 characters, a token at least one
const limit = 400;

// "19_12.45.7-40_3" ↔ [{start: 19, ids: [12, 45, 7]}, {start: 40, ids: [3]}]
export function runsFromText(text) {
  return text.split('-').map((run) => {
    const [start, ids] = run.split('_');
    return { start: Number(start), ids: ids.split('.').map(Number) };
  });
}
export function runsToText(runs) {
  return runs.map(({ start, ids }) => `${start}_${ids.join('.')}`).join('-');
}

// ids that wrote `text` at `start`, as the smallest groups whose texts add
// up to it (a token holding part of a character joins the next).
export function groupsOf({ tokenizer }, ids, text, start) {
  const groups = [];
  let at = 0;
  let group = [];
  for (const id of ids) {
    group.push(id);
    const piece = tokenizer.piece(group);
    if (piece === null || piece.includes('\uFFFD') || !text.startsWith(piece, at)) continue;
    groups.push({ start: start + at, text: piece, ids: group });
    at += piece.length;
    group = [];
  }
  if (group.length) groups.push({ start: start + at, text: text.slice(at), ids: group });
  else if (at < text.length && groups.length) groups.at(-1).text += text.slice(at);
  return groups;
}

// The groups after the text changed from `before` to `after`: the ones the
// change did not touch, moved with it. A token right before the change is
// the learner's too, unless a token is one character (" wor" + "ld" is a
// word they typed).
export function edited(groups, before, after, { characters = false } = {}) {
  if (before === after) return groups;
  const most = Math.min(before.length, after.length);
  let same = 0;
  while (same < most && before[same] === after[same]) same++;
  let tail = 0;
  while (tail < most - same && before[before.length - 1 - tail] === after[after.length - 1 - tail]) tail++;
  const end = before.length - tail;
  const shift = after.length - before.length;
  return groups.flatMap((g) => {
    const last = g.start + g.text.length;
    if (last < same || (last === same && characters)) return [g];
    if (g.start >= end && last > g.start) return [{ ...g, start: g.start + shift }];
    return [];
  });
}

// The runs a link carries: groups that follow each other joined.
export function runsOf(groups) {
  const runs = [];
  for (const g of groups) {
    const run = runs.at(-1);
    if (run && run.end === g.start) {
      run.ids.push(...g.ids);
      run.end += g.text.length;
    } else runs.push({ start: g.start, ids: [...g.ids], end: g.start + g.text.length });
  }
  return runs.map(({ start, ids }) => ({ start, ids }));
}

// The tokens the model reads for `text` and which of them Generate wrote
// (made: true or false per token; null when none did).
// shown: {tokenizer}, the model's (engine/tokenizer.js).
export async function tokensFor({ tokenizer }, text, groups) {
  if (!groups.length) return { tokens: await tokenizer.encode(text), made: null };
  const tokens = [];
  const made = [];
  let at = 0;
  for (const g of [...groups, { start: text.length, ids: [], text: '' }]) {
    let typed = text.slice(at, g.start);
    if (tokenizer.typed && at > 0) typed = typed.replace(/^[\s,]+/, '');  // ", 7" after a generated id
    if (typed) {
      const ids = await tokenizer.encode(typed);
      tokens.push(...ids);
      made.push(...ids.map(() => false));
    }
    tokens.push(...g.ids);
    made.push(...g.ids.map(() => true));
    at = g.start + g.text.length;
  }
  return { tokens, made };
}

// The Model view's generated tokens, a component. chips: the token chips'
// list (the legend goes after it). host: {read() → {text, tokenizer, info}:
// the view's text and model, read only; onRuns(generated): the link's
// `generated=` ("19_12.45.7", or null) changed; onRefused(): a link's runs
// were left out, which the link should say now}.
export class Generated {
  constructor(chips, { read, onRuns, onRefused }) {
    Object.assign(this, { read, onRuns, onRefused });
    this.groups = [];
    this.pending = null;  // a link's runs, checked when the model next runs
    this.problem = '';    // what was wrong with them: one line
    const legend = create('p', { className: 'note model-generated-legend', hidden: true });
    element(legend, 'span', { className: 'model-generated-sample', text: 'dotted' });
    legend.append(' tokens: what Generate wrote; the others are the text you typed. Point at any of them to see what the model guesses after it.');
    chips.after(legend);
    this.legend = legend;
  }

  // A link's runs ("19_12.45.7"; null: none), unless they are the ones shown.
  fromLink(text) {
    const shown = this.groups.length ? runsToText(runsOf(this.groups)) : null;
    if ((text ?? null) !== shown) this.pending = text ? runsFromText(text) : [];
  }

  // Another model opened: its ids are not this one's, unless a link gave them.
  opened() {
    if (!this.pending) this.set([]);
  }

  // text: the text they are in (the view's, unless Generate is adding to it)
  set(groups, text = this.read().text) {
    // a tokenizer.json reads typed text from its start: only the generated
    // groups at the end of the text stay apart
    if (this.read().tokenizer?.contextual) {
      let end = text.length;
      let from = groups.length;
      while (from > 0 && groups[from - 1].start + groups[from - 1].text.length === end) end = groups[--from].start;
      groups = groups.slice(from);
    }
    this.groups = groups;
    this.onRuns(groups.length ? runsToText(runsOf(groups)) : null);
  }

  // The learner changed the text from `before` to `text` (the view's text now).
  edit(before, text) {
    this.problem = '';
    if (!this.groups.length) return;
    this.pending = null;
    this.set(edited(this.groups, before, text, { characters: this.read().tokenizer?.characters === true }));
  }

  // Generate wrote ids as `text` at the end of the text (before it is appended).
  added(ids, text) {
    const shown = this.read();
    const start = shown.text.length;
    this.problem = '';
    this.set([...this.groups, ...groupsOf(shown, ids, text, start)], shown.text + text);
  }

  // The tokens to run for the text, and which Generate wrote.
  async tokensOf(text) {
    if (this.pending) await this.check(text);
    return tokensFor(this.read(), text, this.groups);
  }

  // A link's runs against its text and the model: a run that does not spell
  // the text where it says, or holds an id past the vocabulary, is left out
  // (its text read as typed), with one line.
  async check(text) {
    const runs = this.pending;
    this.pending = null;
    const groups = [];
    const problems = [];
    const shown = this.read();
    const vocab = shown.info.config.vocab;
    let count = 0;
    for (const { start, ids } of runs) {
      const place = `generated: the run at character ${start}`;
      const after = groups.length ? groups.at(-1).start + groups.at(-1).text.length : 0;
      if ((count += ids.length) > limit) {
        problems.push(`${place} and the ones after it are past ${limit} tokens`);
        break;
      }
      const past = ids.find((id) => id >= vocab);
      if (past !== undefined) {
        problems.push(`${place} holds token ${past}, past the model's ${vocab.toLocaleString('en')} tokens`);
        continue;
      }
      let piece = shown.tokenizer.piece(ids);
      if (piece === null) {
        const before = await tokensFor(shown, text.slice(0, start), groups).catch(() => null);
        piece = before ? await shown.tokenizer.decode(ids, before.tokens) : null;
      }
      if (start < after) {
        problems.push(`${place} starts before the run before it ends`);
        continue;
      }
      if (piece === null || !piece || text.slice(start, start + piece.length) !== piece) {
        problems.push(`${place} is not the text there`);
        continue;
      }
      groups.push(...groupsOf(shown, ids, piece, start));
    }
    this.problem = problems.length ? `${problems.join('; ')}: read as typed text` : '';
    this.set(groups);
    if (problems.length) this.onRefused();
  }

  // After a draw: the legend shows while any token is generated.
  drawn(made) {
    this.legend.hidden = !made?.some(Boolean);
  }
}
