// The playground page, index.html's script: each view registered with the
// router, then the engine and the presets loaded, the controls bound and
// the URL's hash applied. Wiring only; each idea has its file in app/.
import { loadEngine } from '../engine/engine.js';
import { bindControls } from './controls.js';
import { disposeLessonView, renderLesson } from './lesson.js';
import { disposeModel, renderModel } from './model.js';
import { app, setEngine, showError } from './page.js';
import { loadPresets, renderPlayground, rerender } from './playground.js';
import { applyHash, route } from './router.js';
import { disposeTraining, renderTraining } from './training.js';

route('playground', { render: renderPlayground, rerender });
route('lesson', { render: renderLesson, dispose: disposeLessonView });
route('train', { render: renderTraining, dispose: disposeTraining });
route('model', { render: renderModel, dispose: disposeModel });

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
