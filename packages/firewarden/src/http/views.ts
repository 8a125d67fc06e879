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

interface RememberedView {
  user: AuthState['user'];
  createdAt: number;
  expiresAt: number;
  idleTimeoutSeconds: number;
  json: string;
}

const rememberedViews = new Map<string, RememberedView>();

/** Same fields with the same values (a user record holds only strings, numbers, booleans and null). */
function sameRecord(a: object, b: object): boolean {
  const aKeys = Object.keys(a);
  if (aKeys.length !== Object.keys(b).length) return false;
  for (const key of aKeys)
    if ((a as Record<string, unknown>)[key] !== (b as Record<string, unknown>)[key]) return false;
  return true;
}

/**
 * `sessionView` as JSON, remembered per session (keyed by its CSRF token) for as long as every
 * field it shows is unchanged: `/auth/me` is the most frequent request, and building and
 * serializing its view was a sixth of its CPU time. Compared field by field (the whole user record
 * plus the session times), so any change to the user (role, name, disabled...) makes a new view;
 * comparing, not serializing, because the check runs on every request.
 */
export function sessionViewJson(
  auth: Pick<AuthState, 'user' | 'session' | 'csrf'>,
  idleTimeoutSeconds: number,
): string {
  const remembered = rememberedViews.get(auth.csrf);
  if (
    remembered !== undefined &&
    remembered.createdAt === auth.session.createdAt &&
    remembered.expiresAt === auth.session.expiresAt &&
    remembered.idleTimeoutSeconds === idleTimeoutSeconds &&
    sameRecord(remembered.user, auth.user)
  )
    return remembered.json;
  const json = JSON.stringify(sessionView(auth, idleTimeoutSeconds));
  rememberedViews.delete(auth.csrf);
  if (rememberedViews.size >= maxRememberedViews)
    rememberedViews.delete(rememberedViews.keys().next().value!);
  rememberedViews.set(auth.csrf, {
    user: { ...auth.user },
    createdAt: auth.session.createdAt,
    expiresAt: auth.session.expiresAt,
    idleTimeoutSeconds,
    json,
  });
  return json;
}
