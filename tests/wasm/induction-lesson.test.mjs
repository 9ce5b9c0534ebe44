// The induction lesson in wasm: the preset trained in the trainer's module,
// its modelFile() opened in the models' module as the Model view opens it,
// and inductionLesson's accuracy on each half of the lesson's text, with
// and without the induction head, as the core's lesson test checks it
// natively (tests/lessons/test_induction.cpp); a bad request is one line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join, dirname } from 'node:path';

import { loadEngine } from '../../web/engine/engine.js';
import { loadModelEngine, ModelError, openModel } from '../../web/engine/model.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const wasmDir = process.env.ATTENTION_WASM_DIR ?? join(root, 'build', 'wasm');
const module = (name) => ({
  moduleUrl: new URL(`file://${join(wasmDir, `${name}.js`)}`),
  wasmBinary: readFileSync(join(wasmDir, `${name}.wasm`)),
});
const trainer = await loadEngine(module('attention-train'));
const models = await loadModelEngine(module('attention-model'));

// The preset as the page ships it, trained to its end, opened from its model file.
const run = trainer.training(readFileSync(join(root, 'web', 'trainings', 'induction.json'), 'utf8'));
run.steps(run.info.steps);
const model = await openModel(new Blob([run.run.modelFile()]), { engine: models, name: 'induction.safetensors' });
run.dispose();
const lesson = (request) => {
  const answer = JSON.parse(model.model.inductionLesson(JSON.stringify(request)));
  if (answer.error) throw new ModelError(answer.error);
  return answer;
};

test('ablating the induction head loses the repeated half and keeps the first', () => {
  const all = lesson({});
  assert.deepEqual([all.heads, all.seed, all.sequences, all.half, all.chance], [[], 0, 1024, 8, 0.125]);
  const cut = lesson({ heads: [[1, 0]] });
  assert.deepEqual(cut.heads, [[1, 0]]);
  assert.ok(all.repeated > 0.7, `repeated half ${all.repeated}`);
  assert.ok(cut.repeated < 2 * cut.chance, `without 1.0, repeated half ${cut.repeated}`);
  assert.ok(Math.abs(cut.first - all.first) <= 0.02, `first half ${all.first} then ${cut.first}`);
  // layer 0's head is the circuit's other half: the repeated half falls without it too
  assert.ok(lesson({ heads: [[0, 0]] }).repeated < all.repeated - 0.3);
  // another text: other numbers, the same story
  const other = lesson({ seed: 7, sequences: 512 });
  assert.notEqual(other.first, all.first);
  assert.ok(other.repeated > 0.7);
});

test('a bad lesson request is one line naming its field', () => {
  const refused = (request, message) => assert.throws(() => lesson(request), { name: 'ModelError', message });
  refused({ heads: [[2, 0]] }, 'induction: 2.0 is not a head of this model (2 layers of 1 heads)');
  refused({ heads: [[1]] }, 'heads[0]: expected [layer, head]');
  refused({ heads: [[-1, 0]] }, 'heads[0][0]: -1 is negative');
  refused({ sequences: 0 }, 'sequences: 0 is not 1 to 4096');
  refused({ half: 9 }, 'half: 9 is not 2 to 8 (half the model\'s 16 positions)');
  refused({ seed: 1.5 }, 'seed: expected an integer');
  refused({ head: [[1, 0]] }, 'induction: unknown field "head"');
  assert.equal(JSON.parse(model.model.inductionLesson('[1]')).error,
    'induction: expected a JSON object {"heads", "seed", "sequences", "half"}');
});
