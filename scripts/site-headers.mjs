// The site's response headers and its Content-Security-Policy, in one place:
// scripts/serve.mjs sends them, build-site.mjs and package-dist.mjs check
// that index.html and embed.html carry the policy as a <meta> (a static host
// sends no header of ours), and the tests read both from here.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

// connect-src 'self': a fetch the browser would follow to another origin
// (a same-site URL that redirects away) is stopped before the request.
// 'wasm-unsafe-eval' compiles the core; workers are the site's own files.
export const policy = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "worker-src 'self'",
].join('; ');

// The pages that carry the policy themselves.
export const pages = ['index.html', 'embed.html'];

export const meta = `<meta http-equiv="Content-Security-Policy" content="${policy}">`;

// Headers of every response; `csp`: the policy as a header too, the way an
// embedder's strict site sends it (frame-ancestors and the host's own pages
// are the header's alone: a <meta> cannot set them).
export function siteHeaders({ csp = false } = {}) {
  const headers = { 'Cache-Control': 'no-cache', 'X-Content-Type-Options': 'nosniff' };
  if (csp) headers['Content-Security-Policy'] = policy;
  return headers;
}

// The pages of `dir` that do not carry `meta` exactly once, as lines; [] when all do.
export function pagesWithoutPolicy(dir) {
  const problems = [];
  for (const page of pages) {
    const text = readFileSync(join(dir, page), 'utf8');
    const policies = text.match(/<meta\s+http-equiv="Content-Security-Policy"[^>]*>/gi) ?? [];
    if (policies.length !== 1 || policies[0] !== meta)
      problems.push(`${join(dir, page)}: its Content-Security-Policy <meta> is not ${meta} (scripts/site-headers.mjs)`);
  }
  return problems;
}
