// The playground page, index.html's script: each view registered with the
// router, then the engine and the presets loaded, the controls bound and
// the URL's hash applied. Wiring only; each idea has its file in app/.
import { loadEngine } from '../engine/engine.js';
import { bindControls } from './controls.js';
import { disposeLessonView, renderLesson } from './lesson.js';
import { app, setEngine, showError } from './page.js';
import { loadPresets, renderPlayground, rerender } from './playground.js';
import { applyHash, route } from './router.js';

// A view whose wiring loads when it first opens (a first visit carries
// neither the training view's nor the Model view's): a render that the
// learner left while the module loaded (a dispose came after it) draws nothing.
function lazyRoute(load, render, dispose) {
  let module = null;
  let asked = 0;
  return {
    async render() {
      const mine = ++asked;
      module ??= await load();
      if (mine === asked) await module[render]();
    },
    dispose() {
      asked++;
      module?.[dispose]();
    },
  };
}

route('playground', { render: renderPlayground, rerender });
route('lesson', { render: renderLesson, dispose: disposeLessonView });
route('train', lazyRoute(() => import('./training.js'), 'renderTraining', 'disposeTraining'));
route('model', lazyRoute(() => import('./model.js'), 'renderModel', 'disposeModel'));

async function main() {
  try {
    const [engine] = await Promise.all([loadEngine(), loadPresets()]);
    setEngine(engine);
  } catch (error) {
    app.dataset.state = 'error';
    showError(`The playground could not start: ${error.message}`);
    return;
  }
  bindControls();
  applyHash();
}

main();
