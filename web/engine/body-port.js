// A fetch Response made on the page, read in a worker: its body crosses a
// MessagePort a chunk at a time, when the worker asks for the next one (its
// reads pace the download, as a body read in place would). The page fetches
// because its Content-Security-Policy governs the page only: a worker loaded
// from a URL takes its policy from its own response, none on a static host.

// The headers a reader of the body looks at (capped-text.js's declaredSize).
const kept = ['content-length', 'content-encoding'];

// Page side: sends `response`'s body on `port`, onEnd() once it is all sent,
// failed or cancelled; {headers} to post with the other port, and cancel()
// (the worker stopped: the download stops too).
export function sendBody(response, port, onEnd = () => {}) {
  const reader = response.body.getReader();
  const end = () => {
    port.close();
    onEnd();
  };
  const stop = () => {
    reader.cancel().catch(() => {});
    end();
  };
  port.onmessage = async ({ data }) => {
    if (data !== 'pull') return stop();
    try {
      const { done, value } = await reader.read();
      if (done) {
        port.postMessage({ done: true });
        return end();
      }
      // a chunk that is a view of a larger buffer is copied: only its bytes move
      const chunk = value.byteOffset === 0 && value.byteLength === value.buffer.byteLength ? value : value.slice();
      port.postMessage({ chunk }, [chunk.buffer]);
    } catch (error) {
      port.postMessage({ error: String(error?.message ?? error) });
      end();
    }
  };
  const headers = {};
  for (const name of kept) if (response.headers.has(name)) headers[name] = response.headers.get(name);
  return { headers, cancel: stop };
}

// Worker side: the Response whose body comes from `port` (sendBody's other
// end), with the headers sent beside it.
export function receiveBody(port, headers) {
  let answer = null;
  port.onmessage = ({ data }) => answer?.(data);
  const body = new ReadableStream({
    async pull(controller) {
      const data = await new Promise((resolve) => {
        answer = resolve;
        port.postMessage('pull');
      });
      if (data.chunk) return controller.enqueue(data.chunk);
      port.close();
      if (data.done) controller.close();
      else controller.error(new TypeError(data.error));  // as a body read in place fails
    },
    cancel() {
      port.postMessage('cancel');
      port.close();
    },
  }, { highWaterMark: 4 });  // a few chunks ahead: the network keeps going while the core reads
  return new Response(body, { headers });
}
