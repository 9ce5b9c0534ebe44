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

// The Response of `href` (an absolute URL), its body unread; a ModelError otherwise.
export async function fetchModel(href) {
  const url = new URL(href);
  const name = quoteText(url.pathname, 80);
  let response;
  try {
    response = await fetch(url, { credentials: 'same-origin' });
  } catch {
    if (await redirects(url)) throw new ModelError(`model: ${name} redirects to another origin; ${elsewhere}`);
    throw new ModelError(`model: cannot load ${name} (a network error)`);
  }
  const final = response.url ? new URL(response.url) : url;
  if (final.origin !== url.origin) {
    response.body?.cancel().catch(() => {});  // nothing of it is read
    throw new ModelError(`model: ${name} redirects to ${final.origin}, another origin; ${elsewhere}`);
  }
  if (!response.ok) {
    response.body?.cancel().catch(() => {});
    throw new ModelError(`model: cannot load ${name} (HTTP ${response.status})`);
  }
  return response;
}

// Whether `url` answers with a redirect (not followed: its target stays unasked).
async function redirects(url) {
  try {
    const response = await fetch(url, { credentials: 'same-origin', redirect: 'manual' });
    response.body?.cancel().catch(() => {});
    return response.type === 'opaqueredirect';
  } catch {
    return false;
  }
}
