/**
 * @module The web UI's files (`dist/ui`, built by Vite) at `/`, served by server-kit's `staticUi`
 * (registered first: it answers only the GET/HEAD outside `/api/` that the API left as 404), with
 * a CSP that lets the page run its own scripts and styles only.
 */
import { fileURLToPath } from 'node:url';
import { staticUi } from '@suite/server-kit';

/** Built next to the server code: `dist/http/static-ui.js` serves `dist/ui/`. */
const defaultUiRoot = fileURLToPath(new URL('../ui/', import.meta.url));

/** No inline script or style, no other origin: the page talks to its own `/api/v1` only. */
const uiContentSecurityPolicy =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

export function firewardenUi(root: string = defaultUiRoot) {
  return staticUi({ root, contentSecurityPolicy: uiContentSecurityPolicy });
}
