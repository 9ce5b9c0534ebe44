// The playground's controls, the player's keys and the window's events,
// each turned into a change of state (router.js) or a move of the player.
import { defaultSentence, temperatureAt } from '../state/state.js';
import { openFile } from './file.js';
import { $, fail } from './page.js';
import { exporters, player, reducedMotion, shownSteps, trace, views } from './playground.js';
import { applyHash, embedView, flushHash, state, update } from './router.js';

function showDrawer(open) {
  $('settings-drawer').hidden = !open;
  $('settings-toggle').setAttribute('aria-expanded', String(open));
}

function debounce(f, ms) {
  let timer;
  return (...args) => {
    clearTimeout(timer);
    timer = setTimeout(() => f(...args), ms);
  };
}

export function bindControls() {
  $('mode-preset').addEventListener('change', () => update({ sentence: null, file: null, mask: null, scale: null, temperature: null }));
  $('mode-sentence').addEventListener('change', () => update({ sentence: defaultSentence, file: null, mask: null, scale: null, temperature: null }));
  $('open-file').addEventListener('change', (e) => openFile(e.target.files[0]).catch(fail));
  // .then(run): a synchronous throw in an exporter reaches fail() too
  for (const [id, run] of Object.entries(exporters)) $(id).addEventListener('click', () => Promise.resolve().then(run).catch(fail));
  $('clear-edits').addEventListener('click', () => update({ edits: null }));
  // the course map loads when first opened
  $('course-toggle').addEventListener('click', () => import('./course.js').then((course) => course.showMap()).catch(fail));
  // the playground's, and the Model view's above its body
  for (const [button, box] of [[$('embed-view'), $('embed-code')], [$('lesson-embed'), $('lesson-embed-code')]]) {
    button.addEventListener('click', () => {
      flushHash();  // the link's state first: a box already open is refreshed by it
      box.hidden = !box.hidden;
      button.setAttribute('aria-expanded', String(!box.hidden));
      if (!box.hidden) embedView().then(({ showEmbedCode }) => !box.hidden && showEmbedCode(box, state)).catch(fail);
    });
  }
  $('settings-toggle').addEventListener('click', () => showDrawer($('settings-drawer').hidden));
  $('mode-sentence').addEventListener('change', () => showDrawer(true));  // its numbers are in the drawer
  document.querySelector('.skip-link').addEventListener('click', (e) => {
    // the hash is the page's state: the link moves focus, never the hash
    e.preventDefault();
    const target = state.lesson || state.train || state.model ? $('lesson') : $('player');  // the Model view lives in #lesson
    target.focus();
  });
  const playerBox = $('player');
  new ResizeObserver(() => {
    const sticky = getComputedStyle(playerBox).position === 'sticky';
    document.documentElement.style.setProperty('--player-height', `${sticky ? playerBox.offsetHeight : 0}px`);
  }).observe(playerBox);
  $('preset').addEventListener('change', (e) => {
    $('sentence').value = '';  // the preset replaces the learner's sentence
    update({ preset: e.target.value, file: null, sentence: null });
  });
  // typing a sentence over a preset starts from the sentence's own settings
  const sentencePatch = (sentence) => (state.sentence === null ? { sentence, file: null, mask: null, scale: null, temperature: null } : { sentence });
  const typed = debounce(() => {
    const sentence = $('sentence').value;
    if (sentence.trim()) update(sentencePatch(sentence), { history: state.sentence === null ? 'push' : 'replace' });
  }, 150);
  $('sentence').addEventListener('input', typed);
  $('sentence').addEventListener('change', () => $('sentence').value.trim() && update(sentencePatch($('sentence').value)));
  $('sentence-form').addEventListener('submit', (e) => e.preventDefault());

  for (const name of ['seed', 'embed', 'head_size', 'value_size', 'heads']) {
    $(name).addEventListener('input', () => {
      const input = $(name);
      const value = Number(input.value);
      const ok = input.value !== '' && Number.isInteger(value) && value >= Number(input.min) && value <= Number(input.max);
      input.setAttribute('aria-invalid', ok ? 'false' : 'true');
      // a red outline alone says nothing: the field says what it takes
      const message = $(`${name}-error`);
      message.textContent = ok ? '' : `a whole number from ${input.min} to ${input.max}`;
      message.hidden = ok;
      if (ok) update({ [name]: value }, { history: 'replace' });
    });
  }
  for (const kind of ['causal', 'none', 'custom']) {
    $(`mask-${kind}`).addEventListener('change', () => {
      if (kind !== 'custom') update({ mask: kind });
      else if (trace) {
        const { shape: [rows, cols], data } = trace.keep;
        update({ mask: Array.from({ length: rows }, (_, i) => Array.from(data.subarray(i * cols, (i + 1) * cols))) });
      }
    });
  }
  $('scale').addEventListener('change', (e) => update({ scale: e.target.checked }));
  $('temperature').addEventListener('input', (e) => update({ temperature: temperatureAt(Number(e.target.value)) }, { history: 'replace' }));
  $('batch').addEventListener('change', (e) => update({ batch: Number(e.target.value) }));
  $('head').addEventListener('change', (e) => update({ head: Number(e.target.value) }));

  $('first').addEventListener('click', () => player.go(0, { animate: false }));
  $('back').addEventListener('click', () => player.back());
  $('play').addEventListener('click', () => player.toggle());
  $('forward').addEventListener('click', () => player.forward());
  $('last').addEventListener('click', () => player.go(player.count - 1, { animate: false }));
  $('speed').addEventListener('change', (e) => { player.speed = Number(e.target.value); });
  for (const button of document.querySelectorAll('.step-button')) {
    button.addEventListener('click', () => player.go(shownSteps.indexOf(button.dataset.step)));
  }

  document.addEventListener('keydown', (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey || !playerOwnsKey(e)) return;
    const actions = {
      ' ': () => player.toggle(),
      k: () => player.toggle(),
      ArrowRight: () => player.forward(),
      l: () => player.forward(),
      ArrowLeft: () => player.back(),
      j: () => player.back(),
      Home: () => player.go(0, { animate: false }),
      End: () => player.go(player.count - 1, { animate: false }),
    };
    const action = actions[e.key];
    if (action) {
      e.preventDefault();
      action();
    }
  });
  window.addEventListener('popstate', applyHash);
  window.addEventListener('hashchange', applyHash);
  // a link whose write waits (typing) is written before the page is left or hidden
  window.addEventListener('pagehide', flushHash);
  document.addEventListener('visibilitychange', () => { if (document.visibilityState === 'hidden') flushHash(); });
  window.addEventListener('resize', debounce(() => views.redraw(), 100));
  reducedMotion.addEventListener('change', (e) => { player.reducedMotion = e.matches; });
}

// The player's keys (Space, arrows, Home, End, j/k/l) are the playground's
// player's wherever the focus is, the page itself included (they never
// scroll it there), but where a control keeps its own keys: a form field
// (text, select, slider), the mask editor, Space on a button (it presses
// it); on a matrix or the graph the arrows move between cells and nodes, so
// only j/k/l and Space reach the player there. In a lesson, the training and
// the Model view there is no player: the keys scroll as browsers do.
function playerOwnsKey(e) {
  if (e.defaultPrevented || state.lesson || state.train || state.model) return false;
  const target = e.target instanceof Element ? e.target : document.body;
  if (target.closest('input, select, textarea, [contenteditable=""], [contenteditable="true"], .mask-editor-wrap')) return false;
  if (e.key === ' ' && target.closest('button, summary')) return false;
  if (target.closest('canvas, .heatmap')) return ['j', 'k', 'l', ' '].includes(e.key);
  return true;
}
