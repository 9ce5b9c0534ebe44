// embed.html#scenario=bank-raw&view=graph&step=weights: one view, no page
// chrome. The hash's keys are the element's attributes (settings.js), and the page tells its
// parent how tall it is, so the host can size the frame:
//   window.addEventListener('message', (e) => {
//     if (e.data?.type === 'attention-playground:height') frame.height = e.data.height;
//   });
// Anyone can craft this page's hash: it takes the main page's hash limit, and
// reports what it refused in the main page's notice above the view.
import '../attention-playground.js';
import { attributeNames as attributes } from './settings.js';
import { hashLengthProblem, linkNotice, quoteText } from '../state/state.js';

const element = document.createElement('attention-playground');
const notice = document.getElementById('notice');
document.getElementById('embed').append(element);

// playground= is where "Open in the playground" goes: a page of this site
// only, so a crafted link cannot point a trusted figure at another origin.
// (The element takes any http(s) page: its attributes are its author's.)
function ownPage(text) {
  let url = null;
  try {
    url = new URL(text, document.baseURI);
  } catch {
    // refused below, like any other origin
  }
  if (url && ['http:', 'https:'].includes(url.protocol) && url.origin === window.location.origin) return { href: url.href };
  return { problem: `playground must be a relative URL or a URL on this site; got ${quoteText(text)}; kept the default, index.html beside this page` };
}

function apply() {
  const tooLong = hashLengthProblem(window.location.hash);
  const problems = tooLong ? [tooLong] : [];
  const params = new URLSearchParams(tooLong ? '' : window.location.hash.slice(1));
  if (params.has('playground')) {
    const { href, problem } = ownPage(params.get('playground'));
    if (problem) {
      problems.push(problem);
      params.delete('playground');
    } else params.set('playground', href);
  }
  for (const name of attributes) {
    if (params.has(name)) element.setAttribute(name, params.get(name));
    else element.removeAttribute(name);
  }
  for (const name of params.keys())
    if (!attributes.includes(name)) console.warn(`embed.html: unknown setting ${JSON.stringify(name.slice(0, 40))}; known: ${attributes.join(', ')}`);
  notice.textContent = linkNotice(problems);
  notice.hidden = !problems.length;
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
