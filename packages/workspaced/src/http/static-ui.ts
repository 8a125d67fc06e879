/**
 * @module The embedded UI (`dist/ui`, built by Vite from `ui/`) at `/`. Registered before every
 * other middleware, it lets a request go through all of them (Host check, session, routes) and
 * answers only what the API left as 404 on a GET/HEAD outside `/api/`: so a foreign Host still
 * gets 403 and `/api/...` keeps its JSON 404. The UI's own headers replace the API's
 * `default-src 'none'` and `no-store`: a CSP that lets the page run its own scripts only, assets
 * with a content hash cached for a year, `index.html` revalidated every time.
 *
 * The files are read once when the app is created, into a map keyed by URL path: a request can
 * only ever name one of them (no path from the URL reaches the file system), and a rebuild shows
 * after a restart.
 */
import { readdirSync, readFileSync } from 'node:fs';
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
  '.woff2': 'font/woff2',
};

/**
 * Scripts from this origin only, never inline; the page talks to its own origin only (`'self'`
 * covers the same-origin `ws:`/`wss:` sockets). Styles allow `'unsafe-inline'` because xterm.js
 * sizes its character grid with a generated `<style>` element; a style cannot run code.
 */
export const uiContentSecurityPolicy =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
  "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/** Vite puts a content hash in every file name under `assets/`: such a file never changes. */
const immutable = 'public, max-age=31536000, immutable';

interface UiFile {
  body: Uint8Array;
  contentType: string;
  cacheControl: string;
}

export function staticUi(root: string = defaultUiRoot): MiddlewareHandler<AppEnv> {
  const files = loadUiFiles(root);
  const index = files.get('/index.html');
  return async (c, next) => {
    await next();
    const { method } = c.req;
    const pathname = c.req.path;
    if (method !== 'GET' && method !== 'HEAD') return;
    if (pathname === '/api' || pathname.startsWith('/api/') || c.res.status !== 404) return;
    // Any other path without an extension is a screen of the single-page app; a missing asset
    // stays 404, so a stale page never gets HTML for its script.
    const file = files.get(pathname) ?? (path.posix.extname(pathname) === '' ? index : undefined);
    if (file === undefined) return;
    const headers = new Headers(c.res.headers);
    headers.set('content-type', file.contentType);
    headers.set('content-security-policy', uiContentSecurityPolicy);
    headers.set('cache-control', file.cacheControl);
    headers.set('content-length', String(file.body.byteLength));
    c.res = undefined;
    c.res = new Response(method === 'HEAD' ? null : file.body, { status: 200, headers });
  };
}

/** Every file below `root` by its URL path (`/assets/index-3f2a.js`); empty when not built. */
function loadUiFiles(root: string): Map<string, UiFile> {
  const files = new Map<string, UiFile>();
  let names: string[];
  try {
    names = readdirSync(root, { recursive: true, encoding: 'utf8' });
  } catch {
    return files;
  }
  for (const name of names) {
    const contentType = contentTypes[path.extname(name)];
    if (contentType === undefined) continue;
    const urlPath = `/${name.split(path.sep).join('/')}`;
    files.set(urlPath, {
      body: new Uint8Array(readFileSync(path.join(root, name))),
      contentType,
      cacheControl: urlPath.startsWith('/assets/') ? immutable : 'no-cache',
    });
  }
  return files;
}
