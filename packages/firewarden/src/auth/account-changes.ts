/**
 * @module Cutting off an account, shared by the API and the CLI: change a user's role or disabled
 * flag (never leaving no enabled admin), set a password, end a user's sessions, lift a username's
 * sign-in lock. Each change, refused ones included, is one audit entry. Errors are web-auth's
 * (`USER_NOT_FOUND`, `LAST_OF_ROLE`, `PASSWORD_*`), mapped by each caller to its own format.
 */
import { type User, type WebAuth, WebAuthError } from '@suite/web-auth';
import type { Role } from './roles.js';

/** Who asks: an admin's session (API) or `cli`. */
export interface ChangeRequester {
  actor: string;
  requestId?: string | null;
  client?: string | null;
  /** The requester's own session: kept when they change their own password. */
  session?: { id: string; userId: string };
}

export interface AccountChange {
  role?: Role;
  disabled?: boolean;
}

/** Always keep one enabled admin: the spec's first admin is the only way back in otherwise. */
const keepAdmin = { keepEnabled: 'admin' };

async function audited<Result>(
  auth: WebAuth,
  requester: ChangeRequester,
  entry: { action: string; target: string | null; detail: Record<string, string | number | boolean> },
  work: () => Promise<{ result: Result; detail?: Record<string, string | number | boolean> }>,
): Promise<Result> {
  const append = (outcome: string, detail: Record<string, string | number | boolean>) =>
    auth.audit.append({
      actor: requester.actor,
      action: entry.action,
      target: entry.target,
      outcome,
      requestId: requester.requestId ?? null,
      client: requester.client ?? null,
      detail: { ...entry.detail, ...detail },
    });
  try {
    const { result, detail } = await work();
    await append('success', detail ?? {});
    return result;
  } catch (error) {
    if (error instanceof WebAuthError) await append('rejected', { code: error.code });
    throw error;
  }
}

async function existing(auth: WebAuth, id: string): Promise<User> {
  const user = await auth.users.getById(id);
  if (!user) throw new WebAuthError('USER_NOT_FOUND', 'no such user');
  return user;
}

/** Role first, then the flag; disabling ends the user's sessions at once (web-auth). */
export function changeAccount(
  auth: WebAuth,
  id: string,
  change: AccountChange,
  requester: ChangeRequester,
): Promise<User> {
  const requested: Record<string, string | boolean> = {};
  if (change.role !== undefined) requested.role = change.role;
  if (change.disabled !== undefined) requested.disabled = change.disabled;
  return audited(auth, requester, { action: 'users.update', target: id, detail: requested }, async () => {
    let user = await existing(auth, id);
    const before = { role: user.role, disabled: user.disabled };
    if (change.role !== undefined && change.role !== user.role)
      user = await auth.users.setRole(id, change.role, keepAdmin);
    if (change.disabled !== undefined && change.disabled !== user.disabled)
      user = await auth.users.setDisabled(id, change.disabled, keepAdmin);
    return {
      result: user,
      detail: {
        username: user.username,
        role_before: before.role,
        disabled_before: before.disabled,
      },
    };
  });
}

/**
 * Policy-checked. Ends every session of the user, except the requester's own session when they
 * change their own password (they stay signed in where they made the change).
 */
export function setAccountPassword(
  auth: WebAuth,
  id: string,
  password: string,
  requester: ChangeRequester,
): Promise<User> {
  return audited(auth, requester, { action: 'users.password', target: id, detail: {} }, async () => {
    const own = requester.session?.userId === id ? requester.session.id : undefined;
    const user = await auth.users.setPassword(id, password, { keepSessionId: own });
    return { result: user, detail: { username: user.username } };
  });
}

/** Ends every session of the user (the requester's own too, when it is theirs); returns how many. */
export function endAccountSessions(auth: WebAuth, id: string, requester: ChangeRequester): Promise<number> {
  return audited(auth, requester, { action: 'users.sessions_revoke', target: id, detail: {} }, async () => {
    const user = await existing(auth, id);
    const ended = await auth.sessions.revokeAllForUser(id);
    return { result: ended, detail: { username: user.username, ended } };
  });
}

/** Forgets every failed sign-in counted for the username (works while a server runs: they are in the database). */
export function unlockUsername(auth: WebAuth, username: string, requester: ChangeRequester): Promise<void> {
  return audited(
    auth,
    requester,
    { action: 'users.unlock', target: null, detail: { username: username.slice(0, 64) } },
    async () => ({ result: await auth.throttle.unlockUsername(username) }),
  );
}
