/**
 * @module The web UI's files (`dist/ui`, built by Vite) at `/`. Registered first, it lets the
 * request go through everything else (request id, Host check, routes) and answers only what the
 * API did not: a GET/HEAD outside `/api/` that ended in 404 `NOT_FOUND`. So a foreign Host still
 * gets 403, `/api/...` keeps its JSON 404, and the UI's own headers (a CSP that lets the page
 * run its own scripts, caching) replace the API's `default-src 'none'` and `no-store`.
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './app-env.js';

/** Built next to the server code: `dist/http/static-ui.js` serves `dist/ui/`. */
export const defaultUiRoot = fileURLToPath(new URL('../ui/', import.meta.url));

const contentTypes: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json; charset=utf-8',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/** No inline script or style, no other origin: the page talks to its own `/api/v1` only. */
export const uiContentSecurityPolicy =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/** Vite puts a content hash in every file name under `assets/`: such a file never changes. */
const immutable = 'public, max-age=31536000, immutable';

export function staticUi(root: string = defaultUiRoot): MiddlewareHandler<AppEnv> {
  const base = path.resolve(root);
  return async (c, next) => {
    await next();
    const method = c.req.method;
    const pathname = c.req.path;
    if ((method !== 'GET' && method !== 'HEAD') || pathname === '/api' || pathname.startsWith('/api/'))
      return;
    if (c.res.status !== 404) return;
    const file = await findFile(base, pathname);
    if (file === null) return;
    const headers = new Headers(c.res.headers);
    headers.set('content-type', contentTypes[path.extname(file.path)] ?? 'application/octet-stream');
    headers.set('content-security-policy', uiContentSecurityPolicy);
    headers.set('cache-control', file.hashed ? immutable : 'no-cache');
    headers.set('content-length', String(file.body.length));
    c.res = undefined;
    c.res = new Response(method === 'HEAD' ? null : new Uint8Array(file.body), { status: 200, headers });
  };
}

interface UiFile {
  path: string;
  body: Buffer;
  hashed: boolean;
}

/**
 * The file the path names inside `base`, or `index.html` for any other path without an
 * extension (the single-page app routes itself). A missing asset stays 404: a stale page must
 * not get HTML for its script.
 */
async function findFile(base: string, pathname: string): Promise<UiFile | null> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const candidate = path.resolve(base, `.${path.posix.normalize(decoded)}`);
  const inside = candidate.startsWith(base + path.sep);
  if (inside && (await isFile(candidate))) {
    const relative = path.relative(base, candidate);
    return {
      path: candidate,
      body: await readFile(candidate),
      hashed: relative.startsWith(`assets${path.sep}`),
    };
  }
  if (path.extname(decoded) !== '') return null;
  const index = path.join(base, 'index.html');
  if (!(await isFile(index))) return null;
  return { path: index, body: await readFile(index), hashed: false };
}

async function isFile(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}
