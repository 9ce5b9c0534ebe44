// A model file's URL, fetched from the origin it names only: the page checks
// the link's URL before any request (presets.js); a same-site URL that
// redirects elsewhere is stopped before the hop by the pages' own
// Content-Security-Policy (connect-src 'self', scripts/site-headers.mjs);
// its securitypolicyviolation event says so (naming where it led if the
// browser tells: Chromium's blockedURI is the URL asked, as CSP3 says).
// On a page without that policy (an author's, embedding the element) the hop
// is made and refused here by where the response came from: a hop to another
// origin that lets the page read it (CORS) ends there, which is named; one
// that does not fails as a network error whose target a page cannot learn
// (the browser hides where a redirect leads): a second request that follows
// no redirect tells that case from a network that is down. Fetched on the
// page, never in a worker (body-port.js).
import { ModelError } from './model.js';
import { quoteText } from '../state/state.js';

const elsewhere = 'model files load from the page\'s own origin only';

// connect-src violations, latest last: a fetch the policy stopped rejects
// with a bare network error, and the event says where it was going.
const stopped = [];
const waiters = new Set();
globalThis.document?.addEventListener('securitypolicyviolation', (event) => {
  if (event.effectiveDirective !== 'connect-src') return;
  stopped.push({ uri: event.blockedURI, at: performance.now() });
  if (stopped.length > 16) stopped.shift();
  for (const wake of waiters) wake();
});

// The Response of `href` (an absolute URL), its body unread; a ModelError
// otherwise. options: label (what the line names first: "model", or a
// folder's file name), method ('GET', or 'HEAD' for a size), missing (true:
// a 404 answers null, for a file a folder may lack).
export async function fetchModel(href, { label = 'model', method = 'GET', missing = false } = {}) {
  const url = new URL(href);
  const name = quoteText(url.pathname, 80);
  let response;
  const started = performance.now();
  try {
    response = await fetch(url, { method, credentials: 'same-origin' });
  } catch {
    const host = await stoppedAt(url, started);
    if (host) throw new ModelError(`${label}: ${name} redirects to ${host}, another origin; ${elsewhere}`);
    if (host === '' || await redirects(url, method)) throw new ModelError(`${label}: ${name} redirects to another origin; ${elsewhere}`);
    throw new ModelError(`${label}: cannot load ${name} (a network error)`);
  }
  const final = response.url ? new URL(response.url) : url;
  if (final.origin !== url.origin) {
    response.body?.cancel().catch(() => {});  // nothing of it is read
    throw new ModelError(`${label}: ${name} redirects to ${final.origin}, another origin; ${elsewhere}`);
  }
  if (!response.ok) {
    response.body?.cancel().catch(() => {});
    if (missing && response.status === 404) return null;
    throw new ModelError(`${label}: cannot load ${name} (HTTP ${response.status})`);
  }
  return response;
}

// Where the policy stopped a fetch of `url` (begun at `started`) going: its
// origin when the event names one, '' when it names `url` itself (Chromium
// does: a redirect's target is hidden from the page), null when no policy
// stopped it. The event may come just after the fetch fails: a moment is
// waited for it, on a failure only.
async function stoppedAt(url, started) {
  const find = () => {
    for (const { uri, at } of [...stopped].reverse()) {
      if (at < started) break;
      let blocked;
      try {
        blocked = new URL(uri);
      } catch {
        continue;  // "inline", "eval" and the like: not a fetch's
      }
      // 'self' lets `url` itself through: stopped, it was at a hop elsewhere
      if (blocked.origin === url.origin && blocked.pathname === url.pathname) return '';
      if (['http:', 'https:'].includes(blocked.protocol) && blocked.origin !== url.origin) return blocked.origin;
    }
    return null;
  };
  if (!globalThis.document || find() !== null) return find();
  let wake;
  await new Promise((resolve) => {
    wake = resolve;
    waiters.add(wake);
    setTimeout(resolve, 100);
  });
  waiters.delete(wake);
  return find();
}

// Whether `url` answers with a redirect (not followed: its target stays unasked).
async function redirects(url, method) {
  try {
    const response = await fetch(url, { method, credentials: 'same-origin', redirect: 'manual' });
    response.body?.cancel().catch(() => {});
    return response.type === 'opaqueredirect';
  } catch {
    return false;
  }
}
