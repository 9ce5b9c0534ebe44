// A lesson's view (lessons/): its title, and its body drawn by the lesson
// with the engine, the presets and the page's state.
import { ScenarioError } from '../engine/engine.js';
import { presetScenario } from '../engine/presets.js';
import { lessons, loadLesson } from '../lessons/index.js';
import { withOverrides } from '../state/sentence.js';
import { openScenarioText } from './file.js';
import { $, app, engine, fail, showError } from './page.js';
import { state, update } from './router.js';
import { element } from '../views/dom.js';

let disposeLesson = () => {};
let shown = null;  // the render whose lesson the body shows (its number: lessonRenders' then)
let parking = null;  // parked.js, loaded with the first Inspect: only then can a lesson be parked

// Renders can overlap (a lesson awaits the core's numbers): each draws into
// its own container, and one that a newer render has overtaken removes its
// container and disposes its trace instead of drawing a second lesson.
let lessonRenders = 0;

export async function renderLesson() {
  const generation = ++lessonRenders;
  const { title } = lessons.find((l) => l.id === state.lesson);
  const lesson = await loadLesson(state.lesson);
  if (generation !== lessonRenders) return;
  disposeLesson();
  disposeLesson = () => {};
  app.dataset.view = 'lesson';
  $('lesson').hidden = false;
  $('lesson-title').textContent = title;
  // the lesson's scenario in the playground, at the step its idea shows
  const open = lesson.playground?.(state);
  $('lesson-open').hidden = !open;
  if (open) $('lesson-open').href = open;
  const body = $('lesson-body');
  const parked = parking?.unpark(state, body);  // back from the Model view: the lesson's run as it was left
  if (parked) {
    ({ dispose: disposeLesson, shown } = parked);
    body.dataset.lesson = lesson.id;
    $('status').hidden = true;
    app.dataset.state = 'ready';
    return;
  }
  body.textContent = '';
  body.dataset.lesson = lesson.id;
  const container = element(body, 'div', { className: 'lesson-content' });
  try {
    const dispose = (await lesson.render(container, { engine, presetScenario, withOverrides, state, update,
      openScenario: (text) => openScenarioText(text, { step: 'weights' }),
      inspect: (trained) => inspect(trained, generation), train: (id) => update({ lesson: null, train: id }, { land: '#train-play' }) })) ?? (() => {});
    if (generation !== lessonRenders) {
      dispose();
      container.remove();
      return;
    }
    disposeLesson = dispose;
    shown = generation;
    // the lesson's number, end links and progress
    import('./course.js').then((course) => { if (generation === lessonRenders) course.showLesson(body, lesson.id); }).catch(fail);
    $('status').hidden = true;
    app.dataset.state = 'ready';
  } catch (error) {
    if (generation !== lessonRenders) return;
    if (!(error instanceof ScenarioError)) throw error;
    showError(error.message);
    app.dataset.state = 'error';
  }
}

// "Inspect what you trained" from a lesson's training view: the lesson as it
// stands is parked (parked.js) for Back, its run kept, while the Model view shows its model.
async function inspect(trained, generation) {
  const { inspectTrained } = await import('./model.js');  // the Model view's wiring loads when first used
  parking ??= await import('./parked.js');
  if (generation !== shown || !state.lesson) return;  // the learner moved on meanwhile
  parking.park(state, $('lesson-body'), { dispose: disposeLesson, shown });
  disposeLesson = () => {};
  shown = null;
  inspectTrained(trained);
}

export function disposeLessonView() {
  disposeLesson();
  disposeLesson = () => {};
  shown = null;
}
