// The heads grid as the model's family shapes it (views/model-grid.js with
// model/family.js's familyOf), on fake info objects and attention in a test
// page of the built site: query heads that share a key/value head bracketed
// as "kv g" with a line between groups and a sentence naming which heads
// read which, nothing of that for a model whose heads each have their own;
// a causal model's thumbnails leave the upper triangle faint, an encoder's
// are painted whole (read back from the canvases' pixels); the selected
// head's graph has edges both ways for an encoder (views/head-trace.js);
// BERT's fill-in panel (model/fill.js) on a fake run.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { openPage, useBrowser } from './browser.mjs';

// a page of the site's origin with the views' and the Model view's styles
const html = '<!doctype html><html><head><link rel="stylesheet" href="app/style.css"><link rel="stylesheet" href="views/views.css">'
  + '<link rel="stylesheet" href="model/model.css"></head><body><main id="host" style="width: 900px"></main></body></html>';
const route = (request, response) => {
  if (new URL(request.url, 'http://localhost').pathname !== '/grid-test.html') return false;
  response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(html);
  return true;
};
const env = useBrowser({ route });

// Draws L × H heads on T tokens for a fake engine info; answers what the grid shows.
async function drawn(page, info, { L = 2, T = 5 } = {}) {
  return page.evaluate(async ({ info, L, T }) => {
    const { HeadGrid } = await import('/views/model-grid.js');
    const { familyOf } = await import('/model/family.js');
    const host = document.getElementById('host');
    host.textContent = '';
    const H = info.config.heads;
    const grid = new HeadGrid(host, { onSelect() {} });
    // weights in (0.1, 0.9): every cell a colour of its own, none the faint masked grey
    const data = Float32Array.from({ length: L * H * T * T }, (_, n) => 0.1 + 0.8 * ((n * 37) % 101) / 100);
    const family = familyOf(info);
    grid.draw({ shape: [L, H, T, T], data }, { layer: 0, head: 0 }, family);
    const thumbs = [...host.querySelectorAll('.model-thumb')];
    const box = (e) => { const r = e.getBoundingClientRect(); return [Math.round(r.left), Math.round(r.right)]; };
    // the thumbnail of layer 0, head 0: its pixels' alpha above and below the diagonal
    const pixels = thumbs[0].querySelector('canvas').getContext('2d').getImageData(0, 0, T, T).data;
    const alpha = (i, j) => pixels[(i * T + j) * 4 + 3];
    return {
      family,
      brackets: [...host.querySelectorAll('.head-grid-kv')].map((b) => ({ text: b.textContent, box: box(b), title: b.title })),
      columns: thumbs.slice(0, H).map(box),
      kv: thumbs.map((t) => t.dataset.kv ?? null),
      firsts: thumbs.filter((t) => t.classList.contains('kv-first')).map((t) => `${t.dataset.layer}.${t.dataset.head}`),
      lines: thumbs.map((t) => getComputedStyle(t, '::before').content),
      labels: thumbs.slice(0, H).map((t) => t.getAttribute('aria-label')),
      caption: host.querySelector('.head-grid-caption').hidden ? null : host.querySelector('.head-grid-caption').textContent,
      causal: host.querySelector('.head-grid').dataset.causal,
      upper: alpha(0, T - 1), lower: alpha(T - 1, 0),
      heads: thumbs.length,
    };
  }, { info, L, T });
}

const gpt = { config: { heads: 4 }, family: 'gpt2', architecture: 'gpt2', familyName: 'GPT-2', maskToken: '', starter: '' };
const llama = { config: { heads: 4 }, family: 'llama', architecture: 'qwen2', familyName: 'Qwen2', maskToken: '', starter: '', causal: true, kvHeads: 2, headDim: 8, maskedLm: false, maskId: null };
const bert = { config: { heads: 4 }, family: 'bert', architecture: 'bert', familyName: 'BERT', maskToken: '[MASK]', starter: 'the cat sat on the [MASK].', causal: false, kvHeads: 4, headDim: 8, maskedLm: true, maskId: 4 };

test('grouped-query attention: a bracket "kv g" over the heads that share it, a line between groups, a sentence; every head still shown', async () => {
  const page = await openPage(env.browser, `${env.url}grid-test.html`);
  const g = await drawn(page, llama);
  assert.deepEqual(g.family, { family: 'llama', name: 'Qwen2', mask: '', starter: '', causal: true, kvHeads: 2, maskId: null, mode: 'next' });
  assert.equal(g.heads, 2 * 4, 'no head hidden');
  assert.deepEqual(g.brackets.map((b) => b.text), ['kv 0', 'kv 1']);
  assert.deepEqual(g.brackets.map((b) => b.title), ['key/value head 0, shared by heads 0–1', 'key/value head 1, shared by heads 2–3']);
  // each bracket spans its group's columns (within its 1 px margins)
  for (const [n, b] of g.brackets.entries()) {
    assert.ok(Math.abs(b.box[0] - g.columns[2 * n][0]) <= 2, `kv ${n} starts over head ${2 * n}: ${b.box} ${g.columns[2 * n]}`);
    assert.ok(Math.abs(b.box[1] - g.columns[2 * n + 1][1]) <= 2, `kv ${n} ends over head ${2 * n + 1}`);
  }
  assert.deepEqual(g.kv, ['0', '0', '1', '1', '0', '0', '1', '1']);
  assert.deepEqual(g.firsts, ['0.2', '1.2'], 'a line before each group but the first, in every layer');
  assert.equal(g.lines[2], '""', 'the line is drawn (model.css)');
  assert.equal(g.labels[3], 'layer 0, head 3, reads key/value head 1');
  assert.equal(g.caption, '4 query heads share 2 key/value heads: heads 0–1 read kv 0, heads 2–3 read kv 1. Heads in a group read the same keys and values and differ only in their queries, so each still has a pattern of its own.');
  assert.equal(g.causal, '1');
  assert.equal(g.upper, 40, 'a causal head leaves its upper triangle faint');
  assert.equal(g.lower, 255);
  // one key/value head for all (multi-query), and 9 heads in 3 groups of 3
  const one = await drawn(page, { ...llama, kvHeads: 1 });
  assert.deepEqual(one.brackets.map((b) => b.text), ['kv 0']);
  assert.equal(one.caption, 'All 4 query heads share one key/value head (kv 0): they read the same keys and values and differ only in their queries.');
  const nine = await drawn(page, { ...llama, config: { heads: 9 }, kvHeads: 3 }, { L: 1 });
  assert.deepEqual(nine.brackets.map((b) => b.title), ['key/value head 0, shared by heads 0–2', 'key/value head 1, shared by heads 3–5', 'key/value head 2, shared by heads 6–8']);
  assert.deepEqual(nine.firsts, ['0.3', '0.6']);
  await page.context().close();
});

test('a model whose heads each have their own key/value head: no bracket, no line, no sentence (GPT-2 as before)', async () => {
  const page = await openPage(env.browser, `${env.url}grid-test.html`);
  for (const info of [gpt, { ...llama, kvHeads: 4 }, { ...llama, kvHeads: 3 } /* not a divisor: no groups drawn */]) {
    const g = await drawn(page, info);
    assert.deepEqual(g.brackets, []);
    assert.deepEqual(g.kv, Array(8).fill(null));
    assert.deepEqual(g.firsts, []);
    assert.equal(g.caption, null);
    assert.equal(g.labels[3], 'layer 0, head 3');
    assert.equal(g.upper, 40);
  }
  assert.deepEqual((await drawn(page, gpt)).family, { family: 'gpt2', name: 'GPT-2', mask: '', starter: '', causal: true, kvHeads: 4, maskId: null, mode: 'next' });
  await page.context().close();
});

test('an encoder (BERT): every thumbnail painted whole, the sentence says every token attends to every token, the graph has edges both ways', async () => {
  const page = await openPage(env.browser, `${env.url}grid-test.html`);
  const g = await drawn(page, bert);
  assert.deepEqual(g.family, { family: 'bert', name: 'BERT', mask: '[MASK]', starter: 'the cat sat on the [MASK].', causal: false, kvHeads: 4, maskId: 4, mode: 'fill' });
  assert.equal(g.causal, '0');
  assert.equal(g.upper, 255, 'the upper triangle is painted as the rest');
  assert.match(g.caption, /^Every token attends to every token, before and after it/);
  assert.deepEqual(g.brackets, []);
  // a BERT without its head: attention only
  assert.equal((await drawn(page, { ...bert, maskedLm: false, maskId: null })).family.mode, 'none');
  // the graph of a head: T² edges, and the key names the edges from the future
  const graph = await page.evaluate(async () => {
    const { Graph } = await import('/views/graph.js');
    const { headTrace } = await import('/views/head-trace.js');
    const host = document.getElementById('host');
    host.textContent = '';
    const T = 4;
    const weights = Float32Array.from({ length: T * T }, () => 1 / T);
    const labels = ['[CLS]', 'the', '[MASK]', '[SEP]'];
    const out = {};
    for (const causal of [true, false]) {
      const graph = new Graph(host.appendChild(document.createElement('div')), {});
      graph.show(headTrace(`t${causal}`, labels, weights, T, { causal }), { head: 0, step: 'weights', progress: 1, batch: 0 });
      out[causal] = { edges: graph.figure.dataset.edges, key: graph.key.textContent };
    }
    return out;
  });
  assert.equal(graph.false.edges, '16');
  assert.match(graph.false.key, /edges from the past arc above the tokens, edges from the future below/);
  assert.equal(graph.true.edges, '10');
  assert.doesNotMatch(graph.true.key, /future/);
  await page.context().close();
});

// BERT's fill-in panel (model/fill.js) on a fake run: the tokens, the core's
// guesses at every position ({k, ids, probabilities}, (T, k)), the bars
// fill.js draws into, and the chips it names the position to mark in.
async function filled(page, { tokens, maskId = 4, mode = 'fill', t = null }) {
  return page.evaluate(async ({ tokens, maskId, mode, t }) => {
    const { showFill } = await import('/model/fill.js');
    const { tokenizerFor } = await import('/engine/tokenizer.js');
    const { NextTokens } = await import('/views/next-tokens.js');
    const { TokenChips } = await import('/views/token-chips.js');
    const host = document.getElementById('host');
    host.textContent = '';
    const names = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]', 'the', 'cat', 'sat', 'on', 'mat', 'play', '##ing'];
    const T = tokens.length, k = 12;
    // position i's guesses: ids in order i, i+1, … (mod 12), probabilities 0.5, 0.25, …
    const ids = Int32Array.from({ length: T * k }, (_, n) => (Math.floor(n / k) + (n % k)) % 12);
    const probabilities = Float32Array.from({ length: T * k }, (_, n) => 0.5 ** ((n % k) + 1));
    const labels = tokens.map((id) => names[id]);
    const view = {
      family: { family: 'bert', name: 'BERT', mask: '[MASK]', starter: 'the cat sat on the [MASK].', causal: false, kvHeads: 4, maskId, mode },
      result: { tokens, top: { k, ids, probabilities } },
      info: { tokenizer: 'characters', vocabulary: names }, labels,
      tokenizer: tokenizerFor({ tokenizer: 'characters', vocabulary: names }),
      next: new NextTokens(host), chips: new TokenChips(host, { onPosition() {} }),
    };
    view.chips.draw(labels, tokens);
    view.chips.mark(showFill(view.next, view, t));
    const box = view.next.box;
    return {
      title: box.querySelector('h3').textContent, key: box.querySelector('.next-tokens-key').textContent,
      bars: [...box.querySelectorAll('li')].map((li) => [li.querySelector('.next-token-text').textContent, Number(li.dataset.p)]),
      position: box.dataset.position ?? null, masked: box.dataset.masked ?? null,
      active: [...host.querySelectorAll('.token-chip.active')].map((c) => c.dataset.position),
    };
  }, { tokens, maskId, mode, t });
}

test('BERT fill-in: the first [MASK]\'s ten guesses, another token\'s when pointed at, a line when there is no [MASK]', async () => {
  const page = await openPage(env.browser, `${env.url}grid-test.html`);
  // [CLS] the cat sat on the [MASK] [SEP]: the guesses at position 6, the [MASK]'s chip lit
  const one = await filled(page, { tokens: [2, 5, 6, 7, 8, 5, 4, 3] });
  assert.equal(one.title, 'Fill in [MASK] (token 6)');
  assert.equal(one.key, 'BERT’s 10 likeliest tokens for the hidden word, from its masked-LM head, which reads the words on both sides of it.');
  assert.deepEqual(one.bars, [6, 7, 8, 9, 10, 11, 0, 1, 2, 3].map((id, n) => [['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]', 'the', 'cat', 'sat', 'on', 'mat', 'play', '##ing'][id], 0.5 ** (n + 1)]));
  assert.equal(one.position, '6');
  assert.equal(one.masked, '1');
  assert.deepEqual(one.active, ['6']);
  // two [MASK]s: the first, and the line says where the other is; pointed at, the second
  const two = await filled(page, { tokens: [2, 4, 7, 8, 5, 4, 3] });
  assert.equal(two.title, 'Fill in [MASK] (token 1)');
  assert.match(two.key, /The text has 2 \[MASK\]s: this is the first; point at another to see its guesses\.$/);
  const second = await filled(page, { tokens: [2, 4, 7, 8, 5, 4, 3], t: 5 });
  assert.equal(second.title, 'Fill in [MASK] (token 5)');
  assert.match(second.key, /this is the second/);
  assert.deepEqual(second.bars[0], ['the', 0.5], 'position 5\'s guesses');
  assert.deepEqual(second.active, ['5']);
  // a token that is not hidden, pointed at: its guesses, and why they are no test
  const seen = await filled(page, { tokens: [2, 5, 6, 7, 8, 5, 4, 3], t: 2 });
  assert.equal(seen.title, 'BERT’s guesses at token 2, "cat"');
  assert.equal(seen.key, 'This token is not hidden: BERT sees it while it guesses, so this is no test. Write [MASK] in its place to hide it.');
  assert.deepEqual(seen.bars[0], ['[CLS]', 0.5], "position 2's guesses (the fake run's first guess is the position's own id)");
  assert.equal(seen.masked, '0');
  // no [MASK]: no bars, one line that says how to write one
  const none = await filled(page, { tokens: [2, 5, 6, 7, 3] });
  assert.equal(none.title, 'Fill in [MASK]');
  assert.equal(none.key, 'No [MASK] in the text: write [MASK] where BERT should guess a word, as in “the cat sat on the [MASK].” Or point at a token to see BERT’s guesses for its position.');
  assert.deepEqual(none.bars, []);
  assert.equal(none.position, null);
  assert.deepEqual(none.active, []);
  // ids typed (no tokenizer.json): the page cannot tell which id is [MASK]
  const untold = await filled(page, { tokens: [2, 5, 4, 3], maskId: null });
  assert.match(untold.key, /^This folder names no \[MASK\] id \(no tokenizer\.json, vocab\.txt or tokenizer_config\.json\), so the page cannot tell which id hides a word/);
  assert.deepEqual(untold.bars, []);
  // a BERT without its head: no bars drawn (family.js hides the panel and says why)
  const headless = await filled(page, { tokens: [2, 5, 4, 3], mode: 'none' });
  assert.deepEqual(headless.bars, []);
  assert.equal(headless.position, null);
  await page.context().close();
});
