/**
 * @module How sessions look on the wire (snake_case, ISO-8601 UTC timestamps), so every route
 * shows them the same way; a user's view is web-auth's `userView`, shared with workspaced.
 */
import { type AuthState, userView } from '@suite/web-auth';

export const iso = (epochMs: number) => new Date(epochMs).toISOString();

export function sessionView(auth: Pick<AuthState, 'user' | 'session' | 'csrf'>, idleTimeoutSeconds: number) {
  return {
    authenticated: true,
    user: userView(auth.user),
    csrf_token: auth.csrf,
    session: {
      created_at: iso(auth.session.createdAt),
      expires_at: iso(auth.session.expiresAt),
      idle_timeout_seconds: idleTimeoutSeconds,
    },
  };
}
