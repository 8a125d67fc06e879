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

/** Sessions whose serialized view is remembered; the oldest is forgotten first. */
const maxRememberedViews = 1_000;
const rememberedViews = new Map<string, { fingerprint: string; json: string }>();

/**
 * `sessionView` as JSON, remembered per session (keyed by its CSRF token) for as long as every
 * field it shows is unchanged: `/auth/me` is the most frequent request, and building and
 * serializing its view was a sixth of its CPU time. The fingerprint is the whole user record plus
 * the session times, so any change to the user (role, name, disabled...) makes a new view.
 */
export function sessionViewJson(
  auth: Pick<AuthState, 'user' | 'session' | 'csrf'>,
  idleTimeoutSeconds: number,
): string {
  const fingerprint = `${JSON.stringify(auth.user)} ${auth.session.createdAt} ${auth.session.expiresAt} ${idleTimeoutSeconds}`;
  const remembered = rememberedViews.get(auth.csrf);
  if (remembered?.fingerprint === fingerprint) return remembered.json;
  const json = JSON.stringify(sessionView(auth, idleTimeoutSeconds));
  rememberedViews.delete(auth.csrf);
  if (rememberedViews.size >= maxRememberedViews)
    rememberedViews.delete(rememberedViews.keys().next().value!);
  rememberedViews.set(auth.csrf, { fingerprint, json });
  return json;
}
