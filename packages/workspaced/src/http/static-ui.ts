/**
 * @module The embedded UI (`dist/ui`, built by Vite from `ui/`) at `/`, served by server-kit's
 * `staticUi` (registered first: it answers only the GET/HEAD outside `/api/` that the API left as
 * 404). `/.well-known/` is left to the app's JSON 404 too: clients probe it for machine-readable
 * documents (an MCP client looks for OAuth metadata there) and must not parse the UI's HTML.
 */
import { fileURLToPath } from 'node:url';
import { staticUi } from '@suite/server-kit';
import type { MiddlewareHandler } from 'hono';

/** Built next to the server code: `dist/http/static-ui.js` serves `dist/ui/`. */
const defaultUiRoot = fileURLToPath(new URL('../ui/', import.meta.url));

/**
 * Scripts from this origin only, never inline; the page talks to its own origin only (`'self'`
 * covers the same-origin `ws:`/`wss:` sockets). Styles come from this origin, plus the `<style>`
 * elements xterm.js creates to size and colour its character grid: the UI gives them the nonce
 * of its own page (`ui/src/style-nonce.ts`), fresh for each answer of `index.html`.
 * Without a nonce (every other file) no inline style is admitted at all.
 */
function uiContentSecurityPolicy(pageNonce?: string): string {
  const styleSource = pageNonce === undefined ? "'self'" : `'self' 'nonce-${pageNonce}'`;
  return (
    `default-src 'self'; script-src 'self'; style-src ${styleSource}; img-src 'self' data:; ` +
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
  );
}

export function workspacedUi(root: string = defaultUiRoot): MiddlewareHandler {
  const ui = staticUi({ root, contentSecurityPolicy: uiContentSecurityPolicy });
  return (c, next) => (c.req.path.startsWith('/.well-known/') ? next() : ui(c, next));
}
