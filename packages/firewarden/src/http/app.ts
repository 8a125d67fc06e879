/**
 * @module The Hono application of `firewarden serve`: request id and security headers, Host and
 * Origin checks, session and CSRF (from `@suite/web-auth`), the audit of state-changing requests,
 * the routes, and the JSON envelope for every answer, errors included (never a stack trace).
 */
import { type AuthErrorWriter, hostAllowList, sessionGuard } from '@suite/web-auth';
import { Hono, type MiddlewareHandler } from 'hono';
import type { Services } from '../server/services.js';
import { isDatabaseUnavailable } from '../store/database-errors.js';
import { ApiError } from './api-error.js';
import type { AppEnv } from './app-env.js';
import { fail } from './envelope.js';
import { auditedMethods, auditRequests } from './middleware/audit-requests.js';
import { requestContext } from './middleware/request-context.js';
import { routeDefiner } from './route-table.js';
import { registerAuditRoutes } from './routes/audit.js';
import { registerAuthRoutes, sessionCookieName } from './routes/auth.js';
import { registerExtensionRoutes } from './routes/extensions.js';
import { registerFirewallRoutes } from './routes/firewall.js';
import { registerMetaRoutes } from './routes/meta.js';
import { registerNotificationRoutes } from './routes/notifications.js';
import { registerSettingsRoutes } from './routes/settings.js';
import { registerSystemRoutes } from './routes/system.js';
import { registerUserRoutes } from './routes/users.js';
import { firewardenUi } from './static-ui.js';

export const csrfHeaderName = 'X-Firewarden-CSRF';

export interface AppOptions {
  /** Served over HTTPS: `Secure` cookies and HSTS. */
  tls: boolean;
  /** The listening port, known once the socket is bound (`--port 0`). */
  port: () => number | undefined;
}

export function createApp(services: Services, options: AppOptions): Hono<AppEnv> {
  const { server } = services.config;
  const app = new Hono<AppEnv>();
  const onError: AuthErrorWriter = (c, _status, code, message) =>
    fail(c as never, new ApiError(code, message));
  const hosts = { port: options.port, allowedHosts: [server.bind, ...server.allowed_hosts] };

  // The auth stores are replaced when an admin changes session settings: always ask for the current ones.
  const currentAuth = {
    get sessions() {
      return services.auth().sessions;
    },
  };

  // First, so it sees the final answer: the web UI answers the GETs the API left at 404.
  app.use('*', firewardenUi());
  app.use('*', requestContext({ trustedProxies: server.trusted_proxies, tls: options.tls }));
  app.use('*', hostAllowList({ ...hosts, onError }));
  // Registered only for the methods it audits, so a read does not pass through it at all.
  app.on(auditedMethods, '*', auditRequests(services));
  const defineRoute = routeDefiner(
    app,
    // Origin, then the session, then CSRF; web-auth's middleware only touches its own variable.
    sessionGuard({
      hosts,
      onError,
      auth: currentAuth,
      cookieName: sessionCookieName,
      csrfHeaderName,
    }) as unknown as MiddlewareHandler<AppEnv>,
  );

  registerMetaRoutes(defineRoute, services);
  registerAuthRoutes(defineRoute, services, { secure: options.tls });
  registerSettingsRoutes(defineRoute, services);
  registerUserRoutes(defineRoute, services);
  registerSystemRoutes(defineRoute, services);
  registerAuditRoutes(defineRoute, services);
  registerNotificationRoutes(defineRoute, services);
  registerFirewallRoutes(defineRoute, services, options.port);
  registerExtensionRoutes(defineRoute, services);

  app.notFound((c) => fail(c, new ApiError('NOT_FOUND', 'no such route')));
  app.onError((error, c) => {
    if (error instanceof ApiError) return fail(c, error);
    if (isDatabaseUnavailable(error)) {
      services.logger.error({ err: error, request_id: c.get('requestId') }, 'database unavailable');
      return fail(c, new ApiError('DB_UNAVAILABLE', 'the database does not answer; try again shortly'));
    }
    services.logger.error({ err: error, request_id: c.get('requestId') }, 'request failed');
    const internal = new ApiError(
      'INTERNAL_ERROR',
      'internal error; the log has the details under this request id',
    );
    return fail(c, internal);
  });
  return app;
}
