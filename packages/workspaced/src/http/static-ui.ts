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
export const defaultUiRoot = fileURLToPath(new URL('../ui/', import.meta.url));

/**
 * Scripts from this origin only, never inline; the page talks to its own origin only (`'self'`
 * covers the same-origin `ws:`/`wss:` sockets). Styles allow `'unsafe-inline'` because xterm.js
 * sizes its character grid with a generated `<style>` element; a style cannot run code.
 */
export const uiContentSecurityPolicy =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
  "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

export function workspacedUi(root: string = defaultUiRoot): MiddlewareHandler {
  const ui = staticUi({ root, contentSecurityPolicy: uiContentSecurityPolicy });
  return (c, next) => (c.req.path.startsWith('/.well-known/') ? next() : ui(c, next));
}
