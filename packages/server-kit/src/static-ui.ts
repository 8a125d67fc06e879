/**
 * @module A product's built web UI (Vite's output folder) at `/`, as Hono middleware registered
 * before every other one. It lets a request go through all of them (request id, Host check,
 * session, routes) and answers only what the API left as 404 on a GET/HEAD outside `/api/`: so a
 * foreign Host still gets its refusal and `/api/...` keeps its JSON 404. The UI's own headers
 * replace the API's `default-src 'none'` and `no-store`: the product's CSP for pages, assets
 * with a content hash cached for a year, `index.html` revalidated every time (or, when the policy
 * takes a nonce, written afresh for every answer and never stored).
 *
 * The files are read once when the middleware is made, into a map keyed by URL path: a request
 * can only ever name one of them (no part of the URL reaches the file system), and a rebuild
 * shows after a restart.
 */
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { MiddlewareHandler } from 'hono';

export interface StaticUiOptions {
  /** The built UI folder (holds `index.html` and `assets/`); nothing is served when it is missing. */
  root: string;
  /**
   * The Content-Security-Policy of the UI's answers. As a function, it is called with a fresh
   * random nonce for every `index.html` answer (and without one for the other files): the page's
   * module script carries that nonce as its `nonce` attribute, where the UI's code reads it to
   * mark the elements the policy should admit (e.g. `style-src 'self' 'nonce-…'`).
   */
  contentSecurityPolicy: string | ((pageNonce?: string) => string);
}

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

/** Vite puts a content hash in every file name under `assets/`: such a file never changes. */
const immutable = 'public, max-age=31536000, immutable';

interface UiFile {
  body: Uint8Array<ArrayBuffer>;
  contentType: string;
  cacheControl: string;
}

export function staticUi(options: StaticUiOptions): MiddlewareHandler {
  const files = loadUiFiles(options.root);
  const index = files.get('/index.html');
  const policy = options.contentSecurityPolicy;
  const answerIndex = typeof policy === 'function' && index ? noncedIndex(index, policy) : undefined;
  return async (c, next) => {
    const { method } = c.req;
    const pathname = c.req.path;
    // Decided before the request runs, so an API request costs no extra step after it.
    if ((method !== 'GET' && method !== 'HEAD') || pathname === '/api' || pathname.startsWith('/api/'))
      return next();
    await next();
    if (c.res.status !== 404) return;
    // Any other path without an extension is a screen of the single-page app; a missing asset
    // stays 404, so a stale page never gets HTML for its script.
    const file = files.get(pathname) ?? (path.posix.extname(pathname) === '' ? index : undefined);
    if (file === undefined) return;
    const answer =
      file === index && answerIndex
        ? answerIndex()
        : { file, contentSecurityPolicy: typeof policy === 'function' ? policy() : policy };
    const headers = new Headers(c.res.headers);
    headers.set('content-type', answer.file.contentType);
    headers.set('content-security-policy', answer.contentSecurityPolicy);
    headers.set('cache-control', answer.file.cacheControl);
    headers.set('content-length', String(answer.file.body.byteLength));
    c.res = undefined;
    c.res = new Response(method === 'HEAD' ? null : answer.file.body, { status: 200, headers });
  };
}

/** Where the nonce goes: the module script Vite writes into `index.html`. */
const moduleScript = '<script type="module"';

/**
 * `index.html` with a nonce of its own for each answer, and the policy naming it: a nonce is only
 * secret while no cache hands the same page to someone else, hence `no-store`.
 */
function noncedIndex(index: UiFile, policy: (pageNonce: string) => string) {
  const html = new TextDecoder().decode(index.body);
  const at = html.indexOf(moduleScript) + moduleScript.length;
  if (at < moduleScript.length) throw new Error(`index.html has no ${moduleScript}> to carry the nonce`);
  return () => {
    // 128 bits, base64: the size and alphabet CSP's nonce-source expects.
    const nonce = randomBytes(16).toString('base64');
    const body = new TextEncoder().encode(`${html.slice(0, at)} nonce="${nonce}"${html.slice(at)}`);
    return {
      file: { ...index, body, cacheControl: 'no-store' },
      contentSecurityPolicy: policy(nonce),
    };
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
