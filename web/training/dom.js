// The DOM builder the training view's parts share (views/dom.js's): an
// element with its properties (text as textContent, never markup).
export { create, element } from '../views/dom.js';
