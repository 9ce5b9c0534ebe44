// The lessons as a course: the map (each lesson's number, its one-line
// promise, the learner's progress), a lesson's number and the links at its
// end. Progress stays in this browser's localStorage and is never sent
// anywhere. Loaded when the map or a lesson first opens: a first visit to
// the playground carries none of it, nor course.css.
import { lessons } from '../lessons/index.js';
import { create, element } from '../views/dom.js';
import { $ } from './page.js';
import { state } from './router.js';

// What the learner can see or tell after each lesson, from what the lesson shows.
const promises = {
  trick: 'See one matrix product let every token average its past, and a masked softmax already look like attention.',
  qkv: 'Read a query, a key and a value, and see the same word, “bank”, come out differently beside different neighbours.',
  encoder: 'Tell a decoder from an encoder by one line, the mask that hides the future, and see both compute.',
  cross: 'Watch the queries of one sequence read the keys and values of another, of another length.',
  multihead: 'See several heads attend side by side, their outputs joined, and why random heads do not differ yet.',
  scaling: 'See why scores are divided by √head_size: unscaled, their variance grows and the softmax turns one-hot.',
  space: 'Shuffle the words and see each output only move with its word: attention alone has no notion of order.',
  position: 'Compare where position enters: GPT-2 adds a learned row to x, Llama turns q and k so a score depends on distance only.',
  learn: 'Train heads live and watch a previous-token head, then an induction head, appear, and see why one layer is not enough.',
  lecture: 'Follow the lecture from a bigram to a GPT, each rung’s loss and writing, and train any rung yourself.',
};

// The course's end: a trained GPT, read head by head.
const end = { href: '#model=text-gpt', title: 'Read a trained GPT', promise: 'Open the shipped model on your own text and find what each head looks at, with the lenses.' };

const style = create('link', { rel: 'stylesheet', href: new URL('./course.css', import.meta.url).href });
const styled = new Promise((resolve) => { style.onload = style.onerror = resolve; });
document.head.append(style);

// Progress: which lessons were opened, which read to their end.
const key = 'attention-playground-course';
const progress = { opened: new Set(), finished: new Set() };
let kept = true;  // false once the storage refused (private mode, blocked): progress lasts until the page closes

function storage() {
  return window.localStorage;  // reading the property itself throws where storage is blocked
}

function load() {
  let text = null;
  try {
    text = storage().getItem(key);
  } catch {
    kept = false;
    return;
  }
  let saved = null;
  try {
    saved = JSON.parse(text);
  } catch {
    return;  // not ours, or damaged: start afresh
  }
  for (const kind of ['opened', 'finished']) {
    const ids = Array.isArray(saved?.[kind]) ? saved[kind] : [];
    for (const id of ids) if (lessons.some((l) => l.id === id)) progress[kind].add(id);
  }
}

function save() {
  try {
    storage().setItem(key, JSON.stringify({ opened: [...progress.opened], finished: [...progress.finished] }));
    kept = true;
  } catch {
    kept = false;
  }
  showProgress();
}

function mark(kind, id) {
  if (progress[kind].has(id) && (kind === 'opened' || progress.opened.has(id))) return;
  progress.opened.add(id);
  progress[kind].add(id);
  save();
}

export function forget() {
  progress.opened.clear();
  progress.finished.clear();
  try {
    storage().removeItem(key);
    kept = true;
  } catch {
    kept = false;
  }
  showProgress();
}

const stateOf = (id) => (progress.finished.has(id) ? 'finished' : progress.opened.has(id) ? 'opened' : 'new');

// The marks: on the tabs (their numbers change colour), in the map.
function showProgress() {
  for (const a of document.querySelectorAll('#lessons-nav a[href^="#lesson="]')) {
    const id = a.getAttribute('href').slice('#lesson='.length);
    a.dataset.progress = stateOf(id);
    a.title = stateOf(id) === 'new' ? '' : `${a.dataset.title}: ${stateOf(id)}`;
  }
  const panel = $('course-map');
  if (!panel.childElementCount) return;
  for (const item of panel.querySelectorAll('li[data-lesson]')) {
    item.dataset.progress = stateOf(item.dataset.lesson);
    item.querySelector('.course-mark').textContent = { new: '', opened: 'opened', finished: 'finished' }[item.dataset.progress];
    const link = item.querySelector('a');
    if (item.dataset.lesson === state.lesson) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
  const count = (set) => lessons.filter((l) => set.has(l.id)).length;
  panel.querySelector('.course-summary').textContent = `${count(progress.opened)} of ${lessons.length} lessons opened, ${count(progress.finished)} read to the end. `
    + (kept ? 'Kept in this browser only, never sent anywhere.' : 'This browser does not let the page keep it: it lasts until the page closes.');
}

function link(parent, href, text, className) {
  const a = element(parent, 'a', { className, text });
  a.href = href;
  return a;
}

function buildMap(panel) {
  element(panel, 'h2', { className: 'course-heading', text: 'The course: ten lessons' });
  element(panel, 'p', { className: 'course-intro', text: 'From a plain average to a trained GPT, after Andrej Karpathy’s “Let’s build GPT” lecture and Sebastian Raschka’s attention notebooks.' });
  const list = element(panel, 'ol', { className: 'course-list' });
  lessons.forEach((lesson, i) => {
    const item = element(list, 'li', { className: 'course-lesson' });
    item.dataset.lesson = lesson.id;
    const a = link(item, `#lesson=${lesson.id}`, '', 'course-link');
    element(a, 'span', { className: 'course-number', text: String(i + 1) });
    a.append(` ${lesson.title}`);
    element(item, 'span', { className: 'course-mark' });
    element(item, 'p', { className: 'course-promise', text: promises[lesson.id] });
  });
  const last = element(panel, 'p', { className: 'course-end' });
  last.append('Then: ');
  link(last, end.href, end.title);
  last.append(`. ${end.promise}`);
  const footer = element(panel, 'p', { className: 'course-progress' });
  element(footer, 'span', { className: 'course-summary' });
  const clear = element(footer, 'button', { className: 'course-forget', text: 'Forget my progress' });
  clear.type = 'button';
  clear.addEventListener('click', forget);
  // a link followed closes the map; Escape closes it and gives the focus back
  panel.addEventListener('click', (e) => { if (e.target.closest('a')) showMap(false); });
  // inside the map the player's keys are the browser's (Space scrolls); ↑ ↓ move between its links
  panel.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') return;
    e.stopPropagation();
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    const stops = [...panel.querySelectorAll('a, button')];
    const at = stops.indexOf(document.activeElement);
    e.preventDefault();
    stops[(at + (e.key === 'ArrowDown' ? 1 : stops.length - 1)) % stops.length].focus();
  });
  document.addEventListener('keydown', (e) => {
    if (e.key !== 'Escape' || panel.hidden) return;
    e.preventDefault();
    const inside = panel.contains(document.activeElement);
    showMap(false);
    if (inside) $('course-toggle').focus();
  });
  document.addEventListener('pointerdown', (e) => {
    if (!panel.hidden && !panel.contains(e.target) && !$('course-toggle').contains(e.target)) showMap(false);
  });
}

// open: true, false, or toggle; focus: move the focus into the map (from a lesson's end)
export async function showMap(open = $('course-map').hidden, { focus = false } = {}) {
  const panel = $('course-map');
  if (open && !panel.childElementCount) {
    buildMap(panel);
    await styled;
  }
  panel.hidden = !open;
  $('course-toggle').setAttribute('aria-expanded', String(open));
  if (!open) return;
  showProgress();
  if (focus) {
    window.scrollTo(0, 0);
    (panel.querySelector('a[aria-current]') ?? panel.querySelector('a')).focus({ preventScroll: true });
  }
}

// A lesson drawn into body: its number above, opened; at its end the next
// lesson (the last: the trained GPT) and the map. Reaching the end marks it read.
export function showLesson(body, id) {
  const i = lessons.findIndex((l) => l.id === id);
  if (i < 0) return;
  mark('opened', id);
  body.querySelector('.lesson-number')?.remove();
  body.querySelector('.lesson-end')?.remove();
  body.prepend(create('p', { className: 'lesson-number', text: `Lesson ${i + 1} of ${lessons.length}` }));
  const nav = element(body, 'nav', { className: 'lesson-end' });
  nav.setAttribute('aria-label', 'Where next');
  const next = lessons[i + 1];
  if (next) link(nav, `#lesson=${next.id}`, `Next lesson, ${i + 2}: ${next.title}`, 'lesson-next');
  else link(nav, end.href, `The course’s end: read a trained GPT in the Model view`, 'lesson-next');
  const back = element(nav, 'button', { className: 'lesson-map', text: 'The course map' });
  back.type = 'button';
  back.addEventListener('click', () => showMap(true, { focus: true }));
  const seen = new IntersectionObserver((entries) => {
    if (!entries.some((e) => e.isIntersecting)) return;
    seen.disconnect();
    if (state.lesson === id) mark('finished', id);
  });
  seen.observe(nav);
}

load();
showProgress();
