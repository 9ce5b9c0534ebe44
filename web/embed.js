// embed.html#scenario=bank-raw&view=graph&step=weights: one view, no page
// chrome. The hash's keys are the element's attributes (element-settings.js), and the page tells its
// parent how tall it is, so the host can size the frame:
//   window.addEventListener('message', (e) => {
//     if (e.data?.type === 'attention-playground:height') frame.height = e.data.height;
//   });
import './attention-playground.js';
import { attributeNames as attributes } from './element-settings.js';

const element = document.createElement('attention-playground');
document.getElementById('embed').append(element);

function apply() {
  const params = new URLSearchParams(window.location.hash.slice(1));
  for (const name of attributes) {
    if (params.has(name)) element.setAttribute(name, params.get(name));
    else element.removeAttribute(name);
  }
  for (const name of params.keys())
    if (!attributes.includes(name)) console.warn(`embed.html: unknown setting ${JSON.stringify(name.slice(0, 40))}; known: ${attributes.join(', ')}`);
}

apply();
window.addEventListener('hashchange', apply);

let last = 0;
new ResizeObserver(() => {
  const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
  if (height === last || window.parent === window) return;
  last = height;
  window.parent.postMessage({ type: 'attention-playground:height', height, state: element.dataset.state }, '*');
}).observe(document.body);
