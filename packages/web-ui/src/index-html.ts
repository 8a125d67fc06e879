/**
 * The one `index.html` of both UIs, served by Vite's dev server and written by its build: no
 * inline script or style (the servers' CSP refuses them), the product's name as title, and
 * `src/main.tsx` of the product's UI folder as the module entry.
 */
import path from 'node:path';
import type { Plugin } from 'vite';

function indexHtml(title: string): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${title}</title>
  </head>
  <body>
    <div id="root"></div>
    <script type="module" src="/src/main.tsx"></script>
  </body>
</html>
`;
}

/** Provides `<root>/index.html` to the build and the dev server without a file of its own. */
export function sharedIndexHtml(root: string, title: string): Plugin {
  const entry = path.join(root, 'index.html');
  return {
    name: 'suite-index-html',
    enforce: 'pre',
    resolveId(id) {
      return path.resolve(root, id) === entry ? entry : null;
    },
    load(id) {
      return id === entry ? indexHtml(title) : null;
    },
    configureServer(server) {
      server.middlewares.use(async (request, response, next) => {
        const accept = request.headers.accept ?? '';
        if (request.method !== 'GET' || !accept.includes('text/html')) return next();
        response.setHeader('content-type', 'text/html; charset=utf-8');
        response.end(await server.transformIndexHtml(request.url ?? '/', indexHtml(title)));
      });
    },
  };
}
