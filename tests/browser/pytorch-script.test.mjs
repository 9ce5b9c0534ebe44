// The exported PyTorch script is run by learners, and its text can come from
// a shared link. Hostile titles, sentences and names must land in it only as
// Python string literals: Python's own parser checks that the script holds
// exactly the statements we write and the text exactly as given.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

import { pytorchSnippet, pyString } from '../../web/export/pytorch.js';
import { scenarioFromSentence } from '../../web/state/sentence.js';
import { defaultState } from '../../web/state/state.js';

const hostile = [
  'a\ropen("/tmp/pwned", "w").write("x")\r#',
  'a\nimport os; os.system("id")\n#',
  'a\u2028import os\u2029b',
  'quote " and \' and \\ and """ and \'\'\'',
  'line\u0085next\u000bvt\u000cff\u001cfs',
  'emoji 😀 and \u202eRTL and \u0000 NUL',
  '\\N{BULLET} \\x41 {0} %s',
];

// Every string constant in the script, every call's dotted name, and every
// comment line, as Python's ast and tokenize see them.
const inspect = `
import ast, io, json, sys, tokenize
source = sys.stdin.read()
tree = ast.parse(source)
def dotted(node):
    if isinstance(node, ast.Name): return node.id
    if isinstance(node, ast.Attribute): return dotted(node.value) + "." + node.attr
    return type(node).__name__
strings = [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)]
calls = sorted({dotted(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call)})
comments = [t.string for t in tokenize.generate_tokens(io.StringIO(source).readline) if t.type == tokenize.COMMENT]
print(json.dumps({"strings": strings, "calls": calls, "comments": comments, "statements": len(tree.body)}))
`;

function python(source) {
  return JSON.parse(execFileSync('/usr/bin/python3', ['-c', inspect], { input: source, encoding: 'utf8' }));
}

test('pyString reads back in Python as the same text', () => {
  const { strings } = python(hostile.map((t, i) => `s${i} = ${pyString(t)}`).join('\n') + '\n');
  assert.deepEqual(strings, hostile);
});

test('hostile sentences, titles and names stay string literals in the exported script', () => {
  const before = python(pytorchSnippet(scenarioFromSentence({ ...defaultState(), sentence: 'The sun rises' })));
  for (const text of hostile) {
    const scenario = scenarioFromSentence({ ...defaultState(), sentence: text.replace(/\u0000/g, '') });
    scenario.title = text;
    scenario.tensors[0].name = text;   // the core would refuse it; the export must not depend on that
    scenario.attention.x = text;
    const result = python(pytorchSnippet(scenario));
    assert.equal(result.statements, before.statements, `no extra statement for ${JSON.stringify(text)}`);
    assert.ok(result.strings.includes(text), `the text survives intact: ${JSON.stringify(text)}`);
    assert.deepEqual(result.calls, before.calls, 'the same calls as for a plain sentence: nothing injected');
    assert.deepEqual(result.comments, before.comments, 'comments are ours alone');
  }
});

test('numbers that are not numbers are refused, never written', () => {
  const scenario = scenarioFromSentence({ ...defaultState(), sentence: 'a b' });
  scenario.attention.temperature = '1); import os #';
  assert.throws(() => pytorchSnippet(scenario), RangeError);
  const shapes = scenarioFromSentence({ ...defaultState(), sentence: 'a b' });
  shapes.tensors.push({ name: 'w', zeros: ['1); import os #'] });
  assert.throws(() => pytorchSnippet(shapes), RangeError);
});

// A rotary scenario's script turns q and k before the scores, with the theta
// and offset of the scenario as numbers (models-v2.md section 2).
test('a rotary scenario\'s script defines the rotation and applies it to q and k of every head', () => {
  const scenario = scenarioFromSentence({ ...defaultState(), sentence: 'The sun rises in the east', heads: 2, head_size: 4 });
  const plain = pytorchSnippet(scenario);
  scenario.attention.rotary = { theta: 500000, offset: 7 };
  const script = pytorchSnippet(scenario);
  assert.ok(!plain.includes('rotate'));
  assert.match(script, /def rotate\(x, theta=500000, offset=7\):/);
  assert.equal(script.match(/q, k = rotate\(q\), rotate\(k\)/g).length, 2);
  const { calls } = python(script);
  assert.ok(calls.includes('rotate') && calls.includes('rotate_half'));
  scenario.attention.rotary = { theta: '1); import os #', offset: 0 };
  assert.throws(() => pytorchSnippet(scenario), RangeError);
  scenario.attention.rotary = { theta: 10000, offset: 1.5 };
  assert.throws(() => pytorchSnippet(scenario), RangeError);
});

// Run by Debian's torch, the rotary preset's script prints PyTorch's trace
// (tests/golden, made by torch_trace.py) within the spec's tolerance.
test('the rotary preset\'s script, run by torch, prints its golden weights and outputs', () => {
  const at = (path) => new URL(`../../${path}`, import.meta.url);
  const scenario = JSON.parse(readFileSync(at('web/scenarios/rotary-sun-rises.json'), 'utf8'));
  const golden = JSON.parse(readFileSync(at('tests/golden/rotary-sun-rises.trace.json'), 'utf8'));
  const printed = JSON.parse(execFileSync('/usr/bin/python3', ['-'], { input: pytorchSnippet(scenario), encoding: 'utf8' }));
  const close = (actual, expected, where) => {
    assert.equal(actual.length, expected.length, where);
    actual.forEach((a, i) => assert.ok(Math.abs(a - expected[i]) <= 2e-5 + 1e-4 * Math.abs(expected[i]), `${where}[${i}]: ${a} vs ${expected[i]}`));
  };
  printed.heads.forEach((head, h) => {
    close(head.weights, golden.heads[h].weights.data, `heads[${h}].weights`);
    close(head.out, golden.heads[h].out.data, `heads[${h}].out`);
  });
  close(printed.out, golden.out.data, 'out');
});
