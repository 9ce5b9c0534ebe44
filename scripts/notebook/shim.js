// What the notebook bundle's modules call instead of fetch, import() of the
// wasm glue and new Worker (scripts/notebook-bundle.mjs rewrites them): the
// files the element finds beside itself, answered from the bundle, so a
// notebook's HTML works from file:// with no network. Never part of the site.
const base = 'ap-bundle:/';
let files = {};
let coreBytes = null;
let createCore = null;

export function setAssets(inlined, wasmBase64, factory) {
  files = inlined;
  coreBytes = () => Uint8Array.from(atob(wasmBase64), (c) => c.charCodeAt(0));
  createCore = factory;
}

const needsSite = (what) => new Error(`${what} needs the playground's site; a notebook figure shows the core's traces, the lessons and given attention`);

// A bundled file as a Response; the host's own URLs go to the real fetch.
export function __apFetch(url, options) {
  const href = String(url?.href ?? url);
  if (!href.startsWith(base)) return fetch(url, options);
  const path = href.slice(base.length);
  if (!Object.hasOwn(files, path)) return Promise.resolve(new Response('', { status: 404, statusText: 'not in the notebook bundle' }));
  const type = path.endsWith('.css') ? 'text/css' : 'application/json';
  return Promise.resolve(new Response(files[path], { status: 200, headers: { 'Content-Type': type } }));
}

// The core's module with its wasm given as bytes (nothing to fetch); the
// trainer's, the model's and the Model view's are not in the bundle.
export async function __apImport(url) {
  if (String(url) === `${base}wasm/attention-core.js`) {
    return { default: (options = {}) => createCore({ ...options, locateFile: undefined, wasmBinary: coreBytes() }) };
  }
  const href = String(url);
  throw needsSite(href.includes('attention-train') ? 'training' : href.includes('model') ? 'the Model view' : 'this view');
}

// Workers run the trainer and the model, which stay on the site.
export class __apWorker {
  constructor(url) {
    const href = String(url?.href ?? url);
    throw needsSite(href.includes('training') ? 'training' : href.includes('model') ? 'the Model view' : 'this view');
  }
}
