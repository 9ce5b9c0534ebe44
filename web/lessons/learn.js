// What attention learns: three tiny transformers trained live, in the
// papers' order. A previous-token head (Elhage et al. 2021), an induction
// head forming in two layers (Olsson et al. 2022), and the same task failing
// with one layer. The training view does the work. What the text says of
// the curves and scores was measured over seeds with the core's own runs
// (attention-cli train on each preset with seeds 1337 and 1 to 9).
import { trainingText } from '../engine/presets.js';
import { choice, element, prose } from './common.js';

const stages = {
  'previous-token': [
    'Until now every weight was random, so no head meant anything. Here one head of one layer learns a task: predict the token that came one place before. The data decides the affinities: each token’s query learns to match the key of its left neighbour.',
    'Press Train and watch the head’s weights: the nodes look at each other, and soon each aggregates from exactly one node, the one just before it. The head’s pattern becomes a line under the diagonal, the dashed one drawn over its card. Elhage et al. (2021) call this a previous-token head. Its score, the weight it puts on the token before, is plotted under the loss. Within about 60 steps accuracy passes 95% and the loss falls from 3.1 to almost nothing; the score ends at 0.97 to 0.99 (five seeds agree).',
  ],
  induction: [
    'Now the sequence repeats a random pattern (5 2 1 4 7 5 2 1 4 7 …) whose length changes from row to row. To predict the next token, a model must find where the current token appeared before and copy what followed it there.',
    'One head cannot do that alone, but two layers can: layer 0 looks at the token before, so a position can carry “who came before me”; layer 1’s queries then look for the earlier position whose previous token is the current token, and copy its value. Olsson et al. (2022) call this an induction head; the dashed squares on each card are its cells, the positions just after the earlier copies of each token.',
    'Watch the curves. The loss first falls steadily, from 2.4 to about 1.8 in a hundred steps, while accuracy reaches about a third. Then it bends down steeply: in ten seeds, accuracy went from 50% to 95% within 50 to 110 steps, somewhere between steps 110 and 250, as layer 1’s induction score (plotted under the loss) rose to end between 0.92 and 0.99. Layer 0 does less than the story says: it puts 0.37 to 0.48 of its weight on the token just before (nearly all of it on the first few positions), and that is enough. Larger models show this moment as a phase change, a long plateau and then a sudden drop; this small one shows a bend, not a plateau. When training ends, the induction head is selected.',
  ],
  'induction-one-layer': [
    'The same task, one layer. Its head can look at tokens equal to the current one, or at a fixed offset, but not at “the token after the earlier copy of me”: that needs a previous-token head first, in a layer below. Accuracy stays far from the two-layer model’s: after 1,000 steps it ends between 52% and 58% in six seeds, its loss still creeping down, and its head scores about 0.2 as an induction head. One layer is not enough.',
  ],
};

export default {
  id: 'learn',
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
