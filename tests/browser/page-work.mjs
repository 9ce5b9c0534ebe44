// The page's own work, counted instead of timed: a test must not fail
// because the machine is busy, so none asserts wall-clock time or long
// tasks (`make bench` measures those, tests/bench/bench_page.mjs). What a
// test can count whatever the load: the messages the page posts to each
// worker, the calls its own thread makes into WebAssembly, and the wasm
// modules it instantiates itself.
//
// countPageWork(context) before the page opens; pageWork(page) reads
// window.__work: {posted: [{worker, type, what, source}], wasmCalls, modules}.
export function countPageWork(context) {
  return context.addInitScript(() => {
    const work = { posted: [], wasmCalls: 0, modules: 0 };
    window.__work = work;
    // which worker a message went to: its script's file name
    const Base = window.Worker;
    window.Worker = class extends Base {
      constructor(url, options) {
        super(url, options);
        this.__script = String(url).split('/').pop();
      }
    };
    const post = Base.prototype.postMessage;
    // the training worker's {type, …}, or the model worker's {method, args}
    // (the lens's request, a model's source: its first argument)
    Base.prototype.postMessage = function (message, ...rest) {
      const source = message?.source ?? message?.args?.[0];
      work.posted.push({
        worker: this.__script ?? null,
        type: message?.type ?? message?.method ?? null,
        what: message?.request?.what ?? (message?.method === 'lens' ? message.args?.[0]?.what : null) ?? null,
        // a File or Blob travels by reference: its bytes are read in the worker
        source: source instanceof File ? 'File' : source instanceof Blob ? 'Blob' : typeof source,
      });
      return post.call(this, message, ...rest);
    };
    // every module the page instantiates, its exports counted when called
    const counted = (instance) => {
      const exports = {};
      for (const [name, value] of Object.entries(instance.exports)) {
        exports[name] = typeof value === 'function' ? (...args) => { work.wasmCalls++; return value(...args); } : value;
      }
      work.modules++;
      return { exports };
    };
    const wrap = (result) => (result instanceof WebAssembly.Instance ? counted(result) : { ...result, instance: counted(result.instance) });
    const instantiate = WebAssembly.instantiate;
    WebAssembly.instantiate = (...args) => instantiate(...args).then(wrap);
    const streaming = WebAssembly.instantiateStreaming;
    if (streaming) WebAssembly.instantiateStreaming = (...args) => streaming(...args).then(wrap);
  });
}

export function pageWork(page) {
  return page.evaluate(() => JSON.parse(JSON.stringify(window.__work)));
}
