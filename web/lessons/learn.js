// What attention learns: three tiny transformers trained live, in the
// papers' order. A previous-token head (Elhage et al. 2021), an induction
// head forming at a phase change in two layers (Olsson et al. 2022), and the
// same task failing with one layer. The training view does the work.
import { trainingText } from '../engine/presets.js';
import { choice, element, prose } from './common.js';

const stages = {
  'previous-token': [
    'Until now every weight was random, so no head meant anything. Here one head of one layer learns a task: predict the token that came one place before. The data decides the affinities: each token’s query learns to match the key of its left neighbour.',
    'Press Train and watch the head’s weights: the nodes look at each other, and soon each aggregates from exactly one node, the one just before it. The head’s pattern becomes a line under the diagonal. Elhage et al. (2021) call this a previous-token head.',
  ],
  induction: [
    'Now the sequence repeats a random pattern (5 2 1 4 7 5 2 1 4 7 …) whose length changes from row to row. To predict the next token, a model must find where the current token appeared before and copy what followed it there.',
    'One head cannot do that alone, but two layers can: layer 0 becomes a previous-token head, so every position carries “who came before me”; layer 1’s queries then look for the earlier position whose previous token is the current token, and copy its value. Olsson et al. (2022) call this an induction head. Watch the loss: it sits on a plateau, then drops at once as the two heads lock together, a phase change.',
  ],
  'induction-one-layer': [
    'The same task, one layer. Its head can look at tokens equal to the current one, or at a fixed offset, but not at “the token after the earlier copy of me”: that needs a previous-token head first, in a layer below. Accuracy stays far from the two-layer model’s: one layer is not enough.',
  ],
};

export default {
  id: 'learn',
  title: 'What attention learns',
  async render(root, { state, update, openScenario }) {
    const preset = Object.hasOwn(stages, state.preset) ? state.preset : 'previous-token';
    choice(root, {
      legend: 'Step',
      name: 'learn-stage',
      choices: [['previous-token', '1. a previous-token head'], ['induction', '2. an induction head (two layers)'], ['induction-one-layer', '3. one layer is not enough']],
      value: preset,
      onChange: (value) => update({ preset: value }),
    });
    for (const text of stages[preset]) prose(root, text);
    const box = element(root, 'div', { className: 'lesson-training' });
    const { TrainingView } = await import('../training/view.js');  // loaded when the lesson opens
    const view = new TrainingView(box, { preset, loadPreset: trainingText, onPreset: (id) => update({ preset: id }), openScenario });
    return () => view.dispose();
  },
};
