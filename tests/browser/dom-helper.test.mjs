// views/dom.js, the page's one way to make an element: properties set as
// properties, `attrs` as attributes (aria-*, data-*, role, for), null props
// left unset, create() unplaced, and SVG elements in SVG's namespace with
// their attributes.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { openPage, ready, useBrowser } from './browser.mjs';

const env = useBrowser();

test('element(), create() and svgElement() make what they are asked for, attributes as attributes', async () => {
  const page = await openPage(env.browser, env.url, { reducedMotion: 'reduce' });
  assert.equal(await ready(page), 'ready');
  const made = await page.evaluate(async () => {
    const { create, element, svgElement } = await import(new URL('views/dom.js', document.baseURI).href);
    const box = create('div', { className: 'a b', hidden: true, title: null });
    const placedAtFirst = box.isConnected;
    document.body.append(box);
    const input = element(box, 'input', { type: 'range', min: '0', max: '4', value: '3', id: 'dom-helper-input', attrs: { 'aria-describedby': 'x', 'data-kind': 'k' } });
    const output = element(box, 'output', { attrs: { for: input.id } });
    const button = element(box, 'button', { type: 'button', text: 'Go', onclick: () => { button.dataset.clicked = '1'; } });
    button.click();
    const svg = svgElement(box, 'svg', { viewBox: '0 0 10 10', 'aria-label': 'chart', class: 'chart' });
    const line = svgElement(svg, 'text', { x: 1, 'text-anchor': 'end' }, 'tick');
    const result = {
      placedAtFirst,
      box: box.outerHTML.slice(0, box.outerHTML.indexOf('>') + 1),
      value: input.value,
      describedBy: input.getAttribute('aria-describedby'),
      kind: input.dataset.kind,
      outputFor: [...output.htmlFor],
      clicked: button.dataset.clicked,
      buttonText: button.textContent,
      order: [...box.children].map((c) => c.localName),
      svgNS: svg.namespaceURI,
      svgClass: svg.getAttribute('class'),
      viewBox: svg.viewBox.baseVal.width,
      text: [line.namespaceURI, line.getAttribute('x'), line.getAttribute('text-anchor'), line.textContent],
    };
    box.remove();
    return result;
  });
  assert.equal(made.placedAtFirst, false);
  assert.equal(made.box, '<div class="a b" hidden="">', 'a null prop is not set (no title="null")');
  assert.equal(made.value, '3');
  assert.equal(made.describedBy, 'x');
  assert.equal(made.kind, 'k');
  assert.deepEqual(made.outputFor, ['dom-helper-input']);
  assert.equal(made.clicked, '1');
  assert.equal(made.buttonText, 'Go');
  assert.deepEqual(made.order, ['input', 'output', 'button', 'svg']);
  assert.equal(made.svgNS, 'http://www.w3.org/2000/svg');
  assert.equal(made.svgClass, 'chart');
  assert.equal(made.viewBox, 10);
  assert.deepEqual(made.text, ['http://www.w3.org/2000/svg', '1', 'end', 'tick']);
  await page.context().close();
});
