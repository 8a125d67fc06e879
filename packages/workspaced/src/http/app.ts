/**
 * @module The Hono application and the table of contents of the API: security baseline first
 * (Host allow-list, body limits, Origin, session, audit, CSRF), then the public routes (health,
 * version, setup, login), the session guard, and the route module of each feature under
 * `/api/v1`, each in its feature's folder; `socketEndpoints` lists the WebSocket endpoints the
 * same way (served on the Node server's upgrade event, realtime/upgrade-handler.ts). Errors
 * become the JSON error body, never a stack trace.
 */
import { type WebAuth, WebAuthError } from '@suite/web-auth';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { registerAttemptRoutes } from '../attempts/attempt-routes.js';
import { registerReviewRoutes } from '../attempts/review-routes.js';
import { registerWorktreeRoutes } from '../attempts/worktree-routes.js';
import { registerAuditRoutes } from '../audit/audit-routes.js';
import { auditTrail } from '../audit/audit-trail.js';
import { requestSecurity } from '../auth/request-security.js';
import { registerSessionRoutes, registerSignedInSessionRoutes } from '../auth/session-routes.js';
import type { SetupGate } from '../auth/setup-token.js';
import { registerUserRoutes } from '../auth/user-routes.js';
import { registerFileRoutes } from '../files/file-routes.js';
import { writeBodyLimit } from '../files/limits.js';
import { registerGitRoutes } from '../git/git-routes.js';
import { registerMcpRoutes } from '../mcp/mcp-routes.js';
import { registerNodePeerRoutes, registerNodeRoutes } from '../nodes/node-routes.js';
import { registerNotificationRoutes } from '../notifications/notification-routes.js';
import { registerHostObservabilityRoutes } from '../observability/host-routes.js';
import { registerMetaRoutes } from '../observability/meta-routes.js';
import { registerEventRoutes } from '../platform/event-routes.js';
import { platformAuth } from '../platform/platform-auth.js';
import { registerTokenRoutes } from '../platform/token-routes.js';
import { registerWebhookRoutes } from '../platform/webhook-routes.js';
import { registerPluginRoutes } from '../plugins/plugin-routes.js';
import { type PreviewRouteOptions, registerPreviewRoutes } from '../preview/preview-routes.js';
import { registerMemberRoutes } from '../projects/member-routes.js';
import { registerProjectRoutes } from '../projects/project-routes.js';
import { registerPushRoutes } from '../push/push-routes.js';
import { registerAttentionRoutes } from '../realtime/attention-routes.js';
import { eventSocketEndpoint } from '../realtime/event-socket-endpoint.js';
import type { SocketEndpoint } from '../realtime/socket-endpoint.js';
import { registerServiceRoutes } from '../services/service-routes.js';
import { registerTaskRoutes } from '../tasks/task-routes.js';
import { registerAgentRoutes } from '../terminals/agents/agent-routes.js';
import { registerObservabilityRoutes } from '../terminals/terminal-observability.js';
import { registerTerminalRoutes } from '../terminals/terminal-routes.js';
import { terminalSocketEndpoint } from '../terminals/terminal-socket-endpoint.js';
import { registerWorkflowRoutes } from '../workflows/workflow-routes.js';
import { ApiError, apiErrorResponse, errorResponse } from './api-error.js';
import { apiPrefix } from './api-prefix.js';
import type { AppEnv, DaemonContext } from './app-env.js';
import { errorStatus } from './error-codes.js';
import { responseHeaders } from './response-headers.js';
import { workspacedUi } from './static-ui.js';

export interface AppOptions {
  context: DaemonContext;
  auth: WebAuth;
  port: () => number | undefined;
  allowedHosts: readonly string[];
  /** The loopback Host names answered: those of the listening address (security/bind-policy.ts). */
  loopbackNames: readonly string[];
  allowedOrigins: readonly string[];
  secureCookies: boolean;
  /** Whether `POST /setup` needs the one-time setup token. */
  setup: SetupGate;
  /** `GET /preview/{port}/...` hands out tickets for the preview origin. */
  previews: PreviewRouteOptions;
}

/** The WebSocket endpoints: `GET /api/v1/ws` (events) and `GET /api/v1/terminals/{id}/ws`. */
export const socketEndpoints: readonly SocketEndpoint[] = [eventSocketEndpoint, terminalSocketEndpoint];

/** Largest body of any route but `files/write`. */
const defaultBodyLimit = 1024 * 1024;

export function createApp(options: AppOptions): Hono<AppEnv> {
  const { context, auth } = options;
  const security = requestSecurity({
    auth,
    port: options.port,
    allowedHosts: options.allowedHosts,
    loopbackNames: options.loopbackNames,
    allowedOrigins: options.allowedOrigins,
  });
  // Bearer tokens and MCP tool dispatches beside the cookie session (platform/platform-auth.ts).
  const callers = platformAuth({
    db: context.db,
    auth,
    loadSession: security.session,
    requireSession: security.requireSession,
  });
  const tooLarge = () => {
    throw new ApiError('BODY_TOO_LARGE', 'the request body is too large');
  };
  const smallBodies = bodyLimit({ maxSize: defaultBodyLimit, onError: tooLarge });
  const fileBodies = bodyLimit({ maxSize: writeBodyLimit(context.fileLimits), onError: tooLarge });

  const app = new Hono<AppEnv>();
  // First, so it sees the final answer of every other middleware (http/static-ui.ts).
  app.use('*', workspacedUi());
  app.use('*', responseHeaders);
  app.use('*', security.host);
  app.use('*', (c, next) =>
    c.req.path.endsWith('/files/write') ? fileBodies(c, next) : smallBodies(c, next),
  );
  app.use('*', security.origin);
  app.use('*', callers.authenticate);
  app.use('*', auditTrail(auth.audit));
  app.use('*', security.csrf);

  const api = new Hono<AppEnv>();
  registerMetaRoutes(api, context);
  const sessionOptions = { auth, secureCookies: options.secureCookies, sockets: context.sockets };
  registerSessionRoutes(api, { ...sessionOptions, setup: options.setup });
  // Other daemons pair and read agents with a node credential instead of a session.
  registerNodePeerRoutes(api, context, auth.audit);
  api.use('*', callers.requireCaller);
  registerSignedInSessionRoutes(api, sessionOptions);
  registerUserRoutes(api, auth, context.sockets);
  registerAuditRoutes(api, auth);
  registerProjectRoutes(api, context);
  registerMemberRoutes(api, context, auth);
  registerFileRoutes(api, context);
  registerGitRoutes(api, context);
  registerTaskRoutes(api, context);
  registerAttemptRoutes(api, context);
  registerReviewRoutes(api, context);
  registerWorktreeRoutes(api, context);
  registerTerminalRoutes(api, context);
  registerAgentRoutes(api, context);
  registerAttentionRoutes(api, context);
  registerObservabilityRoutes(api, context);
  registerPreviewRoutes(api, options.previews);
  registerWorkflowRoutes(api, context);
  registerNodeRoutes(api, context);
  registerServiceRoutes(api, context);
  registerHostObservabilityRoutes(api, context);
  registerNotificationRoutes(api, context);
  registerPushRoutes(api, context);
  registerTokenRoutes(api, context);
  registerWebhookRoutes(api, context);
  registerEventRoutes(api, context);
  registerPluginRoutes(api, context);
  // Tools run through this very app, as the caller (mcp/tool-dispatch.ts).
  registerMcpRoutes(api, { fetch: (request, env) => app.fetch(request, env), version: context.version });
  app.route(apiPrefix, api);

  app.notFound(() => apiErrorResponse(new ApiError('NOT_FOUND', 'no such route')));
  app.onError((error) => {
    if (error instanceof ApiError) return apiErrorResponse(error);
    // web-auth's thrown codes (USERNAME_TAKEN, PASSWORD_TOO_SHORT...) are rows of the table too.
    if (error instanceof WebAuthError) {
      const status = errorStatus[error.code];
      return errorResponse(status, error.code, error.message);
    }
    context.logger.error({ err: error }, 'request failed');
    return apiErrorResponse(new ApiError('INTERNAL', 'internal error; see the daemon log'));
  });
  return app;
}
