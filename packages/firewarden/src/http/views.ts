/**
 * @module How users and sessions look on the wire (snake_case, ISO-8601 UTC timestamps), so
 * every route shows them the same way.
 */
import type { AuthState, User } from '@suite/web-auth';

export const iso = (epochMs: number) => new Date(epochMs).toISOString();

export function userView(user: User) {
  return {
    id: user.id,
    username: user.username,
    display_name: user.displayName,
    role: user.role,
    disabled: user.disabled,
    created_at: iso(user.createdAt),
  };
}

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
