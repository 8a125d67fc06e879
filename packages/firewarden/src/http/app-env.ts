/**
 * @module What the middleware chain puts on each request's context for the handlers.
 */
import type { WebAuthVariables } from '@suite/web-auth';

export interface AppEnv {
  Variables: WebAuthVariables & {
    /** Random id of this request: `X-Request-Id` header, envelope `request_id`, audit, log. */
    requestId: string;
    /** The client's address (the socket peer, or `X-Forwarded-For` behind a trusted proxy). */
    clientAddress: string;
    /** The route pattern that matched (`/api/v1/users`); unset for unknown paths. */
    route: string | undefined;
    /** Set by a handler that wrote its own audit entry, so the generic one is skipped. */
    audited: boolean;
  };
}
