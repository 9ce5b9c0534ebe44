// Routing between the page's views (the playground, a lesson, the training
// view): the one state, the URL hash turned into it and back, and which
// view draws it. The views register here (main.js registers them), so the
// router never imports one; a view changes the state through update().
import { lessons } from '../lessons/index.js';
import { defaultState, linkNotice, parseHash, toHash } from '../state/state.js';
import { $, fail, showNotice } from './page.js';
import { element } from '../views/dom.js';

export let state = defaultState();
export let linkProblems = [];  // what the URL got wrong, until the learner changes something

// For a view that corrects the state in place: the playground drops edits
// that do not fit its input, and says so.
export function setState(next) {
  state = next;
}

export function setLinkProblems(problems) {
  linkProblems = problems;
}

// playground: {render, rerender}; lesson, train and model: {render, dispose}.
// rerender: the same trace drawn again for another batch, head, step or layout.
const routes = {};

export function route(name, view) {
  routes[name] = view;
}

// Called before each view is drawn: parked.js's, once an Inspect has loaded it.
let settle = () => {};
export function beforeRender(hook) {
  settle = hook;
}

let lastPlaygroundHash = '#';

// Short names keep the nav to one row at 1280 px, so the first screen is the
// playground's; each lesson's heading keeps its full title (data-title).
const navNames = {
  trick: 'Averaging', qkv: 'Q, K, V', encoder: 'Encoder / decoder', cross: 'Cross-attention',
  multihead: 'Multi-head', scaling: 'Scaling', space: 'Word order', position: 'Position', learn: 'Induction heads', lecture: 'Lecture GPT',
};

function renderNav() {
  const nav = $('lessons-nav');
  if (!nav.childElementCount) {
    const link = (href, text) => element(nav, 'a', { href, text });
    link('#', 'Playground');
    // numbered as a course (style.css shows data-n)
    lessons.forEach((lesson, i) => Object.assign(link(`#lesson=${lesson.id}`, navNames[lesson.id] ?? lesson.title).dataset, { title: lesson.title, n: i + 1 }));
    link('#train=induction', 'Train live');
    link('#model=text-gpt', 'Model');
  }
  document.querySelector('.skip-link').textContent = state.model ? 'Skip to the model' : state.train ? 'Skip to the training' : state.lesson ? 'Skip to the lesson' : 'Skip to the step player';
  // back to the playground as the learner left it (sentence, settings), not to the default
  if (!state.lesson && !state.train && !state.model) lastPlaygroundHash = window.location.hash || '#';
  nav.querySelector('a').setAttribute('href', lastPlaygroundHash);
  const current = state.model ? '#model=text-gpt' : state.train ? '#train=induction' : state.lesson ? `#lesson=${state.lesson}` : lastPlaygroundHash;
  for (const a of nav.querySelectorAll('a')) {
    if (a.getAttribute('href') === current) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
  // a nav scrolled sideways (a phone) shows the current view's link
  const shown = nav.querySelector('[aria-current]');
  if (shown && nav.scrollWidth > nav.clientWidth) nav.scrollLeft = Math.max(0, shown.offsetLeft - nav.offsetLeft - 16);
}

function refresh() {
  return render().catch(fail);
}

// Where a change of view lands (README, "The page"): at the new view's top,
// or at the control the action was about (update()'s `land`, a selector).
// The page places itself: the browser's restored scroll belongs to the view left.
history.scrollRestoration = 'manual';
let shownView = null;
let landOn = null;

const viewOf = (s) => (s.model ? 'model' : s.train ? 'train' : s.lesson ? `lesson:${s.lesson}` : 'playground');

function land(selector) {
  const target = selector && document.querySelector(selector);
  if (!target) window.scrollTo(0, 0);
  // two frames on: the sticky player's height (controls.js, a ResizeObserver) is
  // the new view's by then, so the target lands under the player, not behind it
  else requestAnimationFrame(() => requestAnimationFrame(() =>
    target.scrollIntoView({ block: target.offsetHeight < window.innerHeight / 2 ? 'center' : 'start' })));
}

async function render() {
  const view = viewOf(state);
  const moved = view !== shownView;
  const target = landOn;
  shownView = view;
  landOn = null;
  await renderView();
  if ((moved || target) && viewOf(state) === view) land(target);
}

async function renderView() {
  renderNav();
  showNotice(linkNotice(linkProblems));
  settle(state);
  if (state.model) {
    routes.train.dispose();
    routes.lesson.dispose();
    await routes.model.render();
    return;
  }
  routes.model.dispose();
  if (state.train) {
    routes.lesson.dispose();
    await routes.train.render();
    return;
  }
  routes.train.dispose();
  if (state.lesson) {
    await routes.lesson.render();
    return;
  }
  routes.lesson.dispose();
  await routes.playground.render();
}

export function writeHash(mode) {
  cancelSoon();
  const hash = toHash(state);
  if (hash === window.location.hash || (hash === '#' && !window.location.hash)) return;
  if (mode === 'push') history.pushState(null, '', hash);
  else history.replaceState(null, '', hash);
  appliedHash = window.location.hash;
  refreshEmbedBoxes();
}

// "Embed this view" loads when first opened: a first visit carries none of it
export const embedView = () => import('./embed-view.js');

// An open "Embed this view" box shows the state the page shows
function refreshEmbedBoxes() {
  const open = [$('embed-code'), $('lesson-embed-code')].filter((box) => !box.hidden);
  if (open.length) embedView().then(({ showEmbedCode }) => open.forEach((box) => showEmbedCode(box, state))).catch(fail);
}

// A link written after typing pauses: history.replaceState on every
// keystroke cost the Model view's input handler most of its time. Whatever
// reads the link flushes it first (flushHash): the page hidden or left, the
// text field left, "Embed this view".
const pause = 300;  // ms
let soon = null;     // the timer of the write waiting

function cancelSoon() {
  clearTimeout(soon);
  soon = null;
}

export function writeHashSoon() {
  cancelSoon();
  soon = setTimeout(() => writeHash('replace'), pause);
}

export function flushHash() {
  if (soon !== null) writeHash('replace');
}

// land: a selector of what the change is about, scrolled into view once drawn
export function update(patch, { history: mode = 'push', land: target = null } = {}) {
  linkProblems = [];
  landOn = target;
  // edits belong to the tensors of one input: a new input starts clean
  const inputKeys = ['preset', 'sentence', 'file', 'seed', 'embed', 'head_size', 'value_size', 'heads'];
  if (inputKeys.some((k) => k in patch) && !('edits' in patch)) patch = { ...patch, edits: null };
  const affectsScenario = Object.keys(patch).some((k) => !['batch', 'head', 'step', 'graph'].includes(k));
  state = { ...state, ...patch };
  if (affectsScenario && !('mask' in patch) && ('preset' in patch || 'sentence' in patch)) {
    // a new input starts from its own mask, scale and temperature
    if ('preset' in patch || state.sentence === null) Object.assign(state, { mask: null, scale: null, temperature: null });
  }
  writeHash(mode);
  if (affectsScenario) refresh();
  else routes.playground.rerender();
}

// One navigation can fire both popstate and hashchange: apply each hash once.
let appliedHash = null;

export function applyHash() {
  if (window.location.hash === appliedHash) return;
  // the link followed replaces the state a write was waiting with: Back within
  // the page in the 300 ms after a keystroke leaves that keystroke out of the
  // entry left (the URL has changed by now; Forward shows the text before it)
  cancelSoon();
  appliedHash = window.location.hash;
  const { state: parsed, problems } = parseHash(window.location.hash);
  linkProblems = problems;
  state = parsed;
  refresh();
  refreshEmbedBoxes();
}
