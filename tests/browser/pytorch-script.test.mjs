// The exported PyTorch script is run by learners, and its text can come from
// a shared link. Hostile titles, sentences and names must land in it only as
// Python string literals: Python's own parser checks that the script holds
// exactly the statements we write and the text exactly as given.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';

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
