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
    /** The security headers of every answer (chosen by `requestContext`, added by the envelope). */
    answerHeaders: Readonly<Record<string, string>>;
    /** True once a handler has set a header through `c.header()` (see envelope.ts). */
    handlerHeaders: boolean;
    /** True when the answer was made by the envelope, which put the common headers on it. */
    enveloped: boolean;
  };
}
