/**
 * @module `GET /api/v1/preview/{port}/{*path}` on the daemon's API origin. It never proxies here
 * (a previewed page on this origin could call the API with the user's cookie): it checks the
 * port and the caller's right (`mayPreview`: terminal.create in some project), then redirects (302) to the same path on the preview origin
 * through the ticket exchange, with a 60 s single-use ticket bound to the user, their session and
 * the port. Only GET: a preview is opened by navigating to it.
 */
import type { Hono, MiddlewareHandler } from 'hono';
import type { WorkspacedDb } from '../db/open-database.js';
import { ApiError } from '../http/api-error.js';
import { apiPrefix } from '../http/api-prefix.js';
import type { AppEnv } from '../http/app-env.js';
import { mayPreview, previewPermission } from './preview-access.js';
import { previewOrigin } from './preview-host.js';
import { type OwnPorts, previewTarget } from './preview-port.js';
import { ticketExchangePath } from './preview-server.js';
import type { PreviewTokens } from './preview-tokens.js';

export interface PreviewRouteOptions {
  db: WorkspacedDb;
  tokens: PreviewTokens;
  ownPorts: OwnPorts;
  /** The preview listener's port, known once it listens. */
  previewPort: () => number | undefined;
}

export function registerPreviewRoutes(app: Hono<AppEnv>, options: PreviewRouteOptions): void {
  const mayOpen: MiddlewareHandler<AppEnv> = async (c, next) => {
    if (!(await mayPreview(options.db, c.var.principal)))
      throw new ApiError(
        'PERMISSION_DENIED',
        `a preview takes ${previewPermission} in at least one project`,
        { permission: previewPermission },
      );
    await next();
  };
  app.on('GET', ['/preview/:port', '/preview/:port/*'], mayOpen, (c) => {
    const port = previewTarget(c.req.param('port') ?? '', options.ownPorts);
    const url = new URL(c.req.url);
    // The raw (still percent-encoded) rest of the path and the query, exactly as sent.
    const rest = url.pathname.slice(`${apiPrefix}/preview/${port}`.length);
    const next = `${rest === '' ? '/' : rest}${url.search}`;
    const auth = c.var.auth!;
    const ticket = options.tokens.issueTicket({ userId: auth.user.id, sessionId: auth.session.id, port });
    const target = new URL(ticketExchangePath, previewOrigin(port, options.previewPort()!));
    target.searchParams.set('ticket', ticket);
    target.searchParams.set('next', next);
    return c.redirect(target.toString(), 302);
  });
}
