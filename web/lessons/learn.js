// What attention learns: three tiny transformers trained live, in the
// papers' order. A previous-token head (Elhage et al. 2021), an induction
// head forming in two layers (Olsson et al. 2022), and the same task failing
// with one layer; then the induction model opened in the Model view, its
// circuit read with the lenses. The training view does the work. What the
// text says of the curves and scores was measured over seeds with the core's
// own runs (attention-cli train on each preset with seeds 1337 and 1 to 9);
// what step 4 says of the lenses, on the model the preset trains at its seed
// (tests/lessons/test_induction.cpp checks each number).
import { trainingText } from '../engine/presets.js';
import { inductionExample } from '../training/inspect.js';
import { choice, element, prose } from './common.js';

// The example the Model view opens on: eight ids, the same eight again, the last left to guess.
const example = [...inductionExample, ...inductionExample.slice(0, -1)].join(' ');

const stages = {
  'previous-token': [
    'Until now every weight was random, so no head meant anything. Here one head of one layer learns a task: predict the token that came one place before. The data decides the affinities: each token’s query learns to match the key of its left neighbour.',
    'Press Train and watch the head’s weights: the nodes look at each other, and soon each aggregates from exactly one node, the one just before it. The head’s pattern becomes a line under the diagonal, the dashed one drawn over its card. Elhage et al. (2021) call this a previous-token head. Its score, the weight it puts on the token before, is plotted under the loss. Within about 60 steps accuracy passes 95% and the loss falls from 3.1 to almost nothing; the score ends at 0.97 to 0.99 (five seeds agree).',
  ],
  induction: [
    'Now the sequence repeats a random pattern (5 2 1 4 7 5 2 1 4 7 …) whose length changes from row to row. To predict the next token, a model must find where the current token appeared before and copy what followed it there.',
    'One head cannot do that alone, but two layers can: layer 0 looks at the token before, so a position can carry “who came before me”; layer 1’s queries then look for the earlier position whose previous token is the current token, and copy its value. Olsson et al. (2022) call this an induction head; the dashed squares on each card are its cells, the positions just after the earlier copies of each token.',
    'Watch the curves. The loss first falls steadily, from 2.4 to about 1.8 in a hundred steps, while accuracy reaches about a third. Then it bends down steeply: in ten seeds, accuracy went from 50% to 95% within 50 to 110 steps, somewhere between steps 110 and 250, as layer 1’s induction score (plotted under the loss) rose to end between 0.92 and 0.99. Layer 0 does less than the story says: it puts 0.37 to 0.48 of its weight on the token just before (nearly all of it on the first few positions), and that is enough. Larger models show this moment as a phase change, a long plateau and then a sudden drop; this small one shows a bend, not a plateau. When training ends, the induction head is selected. Step 4 opens this model in the Model view and says what to look for there.',
  ],
  'induction-one-layer': [
    'The same task, one layer. Its head can look at tokens equal to the current one, or at a fixed offset, but not at “the token after the earlier copy of me”: that needs a previous-token head first, in a layer below. Accuracy stays far from the two-layer model’s: after 1,000 steps it ends between 52% and 58% in six seeds, its loss still creeping down, and its head scores about 0.2 as an induction head. One layer is not enough.',
  ],
  inspect: [
    `The curves say that the model learned; they do not say how. The Model view’s lenses do, and this model is small enough to read whole. Below, step 2’s model trains again from the same seed, as fast as it goes. When it is done, press Inspect what you trained: its weights go to the Model view as a model file in memory (nothing is saved), which opens on the head scores and on this lesson’s example, ${example}: eight ids, then the same eight again, the last left for the model to guess. What to look for there:`,
    'The head scores name each head’s role. Layer 1’s head is the induction head: 0.62, its largest score and the only one of either head above 0.5 (the lens measures it on a repeat of its own, so it stays whatever you type). Layer 0’s head is the previous-token head: that is its largest score, but only about 0.4 (0.41 to 0.46 on the lesson’s sequences), so the lens calls it no clear role. As step 2 said, layer 0 does less than the story says, and it is enough.',
    'Ablate switches heads off. Switch off layer 1’s head: the model was sure that 0 comes next; now other ids lead. On the lesson’s own text (1,024 sequences of eight random ids, each followed by the same eight again), the core measured it: the model guesses 76% of the repeated half right, and 19% without layer 1’s head, below twice chance (25%; chance is one id in eight). The first half, where nothing can be copied yet, stays at chance: 12.5% with the head, 12.4% without. Without layer 0’s head instead, 27%: the induction head needs it. (76%, not all: random ids often repeat within the first eight, and then which copy to follow is unclear.) The lens’s loss on the example falls when the head is off: it averages every guess, and in the first half the trained model bets, wrongly and surely, on a repeat that has not come yet; without the head, those wrong bets are less sure.',
    'The logit lens reads the model’s guess after each layer, as if it stopped there. After layer 0, the right id is the top guess at none of the seven positions after the repeat begins (0 leads at most of them); after layer 1, at all seven, each with a probability of at least 0.9999. The answer appears after layer 1, the induction head’s layer. Over the lesson’s whole text, the right id is the top guess at 12% of the repeated half after the embeddings, 19% after layer 0 and 76% after layer 1.',
    'Why the training view below shows other numbers (accuracy near 100%, an induction score near 0.99): the task repeats patterns of distinct ids, and its accuracy counts only the guesses a copy can make. The lens scores a head on a random repeat of its own, and the lesson’s text draws ids that may recur within the first eight.',
  ],
};

// A step that trains another step's preset: step 4 opens step 2's model,
// trained again from its seed as fast as it goes.
const trains = { inspect: 'induction' };

export default {
  id: 'learn',
  async render(root, { state, update, openScenario, inspect }) {
    const preset = Object.hasOwn(stages, state.preset) ? state.preset : 'previous-token';
    choice(root, {
      legend: 'Step',
      name: 'learn-stage',
      choices: [['previous-token', '1. a previous-token head'], ['induction', '2. an induction head (two layers)'], ['induction-one-layer', '3. one layer is not enough'],
        ['inspect', '4. inspect what you trained']],
      value: preset,
      onChange: (value) => update({ preset: value }),
    });
    for (const text of stages[preset]) prose(root, text);
    const box = element(root, 'div', { className: 'lesson-training' });
    const { TrainingView } = await import('../training/view.js');  // loaded when the lesson opens
    const again = Object.hasOwn(trains, preset);
    const view = new TrainingView(box, { preset: trains[preset] ?? preset, loadPreset: trainingText, onPreset: (id) => update({ preset: id }), openScenario, inspect,
      ...(again ? { autoplay: true, speed: 0 } : {}) });
    return () => view.dispose();
  },
};
