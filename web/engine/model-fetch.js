// A model file's URL, fetched from the origin it names only: the page checks
// the link's URL before any request (presets.js), and a same-site URL that
// redirects elsewhere is refused here by where the response really came from.
// A hop to another origin that lets the page read it (CORS) ends on that
// origin, which is named. One that does not, or that the page's
// Content-Security-Policy stops (connect-src 'self'), fails as a network
// error whose target a page cannot learn (the browser hides where a redirect
// leads): a second request that follows no redirect tells that case from a
// network that is down.
import { ModelError } from './model.js';
import { quoteText } from '../state/state.js';

const elsewhere = 'model files load from the page\'s own origin only';

// The Response of `href` (an absolute URL), its body unread; a ModelError
// otherwise. options: label (what the line names first: "model", or a
// folder's file name), method ('GET', or 'HEAD' for a size), missing (true:
// a 404 answers null, for a file a folder may lack).
export async function fetchModel(href, { label = 'model', method = 'GET', missing = false } = {}) {
  const url = new URL(href);
  const name = quoteText(url.pathname, 80);
  let response;
  try {
    response = await fetch(url, { method, credentials: 'same-origin' });
  } catch {
    if (await redirects(url, method)) throw new ModelError(`${label}: ${name} redirects to another origin; ${elsewhere}`);
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
