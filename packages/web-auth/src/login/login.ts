/**
 * @module The sign-in flow: throttle, verify (spending one hash even for an unknown user), refuse
 * disabled accounts, rehash on parameter change, create the session and record the audit entry.
 */
import type { AuditLog } from '../audit/audit-log.js';
import type { StoreContext } from '../context.js';
import { type Argon2Parameters, hashPassword, needsRehash, verifyPassword } from '../passwords/argon2.js';
import { exceedsMaxBytes, type PasswordPolicy } from '../passwords/policy.js';
import type { Session, SessionStore } from '../sessions/session-store.js';
import type { LoginThrottle } from '../throttle/login-throttle.js';
import { usernameMaxLength } from '../users/fields.js';
import { findUserRecord, type User } from '../users/user-store.js';

export interface LoginRequest {
  username: string;
  password: string;
  /** The client address (socket peer, or the proxy-reported one the product trusts). */
  client?: string | null;
  userAgent?: string | null;
  /** Recorded in the audit entry. */
  requestId?: string | null;
}

export type LoginResult =
  | { kind: 'ok'; user: User; session: Session; token: string; csrf: string }
  | { kind: 'invalid_credentials' }
  | { kind: 'rate_limited'; retryAfterSeconds: number }
  | { kind: 'disabled' };

interface LoginDependencies {
  context: StoreContext;
  sessions: SessionStore;
  throttle: LoginThrottle;
  audit: AuditLog;
  argon2: Argon2Parameters;
  policy: PasswordPolicy;
  dummyVerify: () => Promise<void>;
}

export const loginAuditAction = 'auth.login';

export function createLogin(
  dependencies: LoginDependencies,
): (request: LoginRequest) => Promise<LoginResult> {
  const { context, sessions, throttle, audit, argon2, policy, dummyVerify } = dependencies;

  return async function login(request) {
    const username = typeof request.username === 'string' ? request.username : '';
    const password = typeof request.password === 'string' ? request.password : '';
    const record = (outcome: string, user?: User, detail = {}) =>
      audit.append({
        actor: user?.username ?? username.slice(0, usernameMaxLength),
        action: loginAuditAction,
        target: user?.id ?? null,
        outcome,
        requestId: request.requestId ?? null,
        client: request.client ?? null,
        detail,
      });

    const decision = await throttle.attempt(username, request.client);
    if (!decision.allowed) {
      // Refused before any check, at whatever rate the caller sends: counted, not chained.
      await audit.countRefusal({
        kind: `${loginAuditAction} rate_limited`,
        sample: { username: username.slice(0, usernameMaxLength), client: request.client ?? null },
      });
      return { kind: 'rate_limited', retryAfterSeconds: decision.retryAfterSeconds };
    }

    // An oversized password is refused before any hashing, whoever the user is.
    const oversized = exceedsMaxBytes(password, policy);
    const found = oversized ? undefined : await findUserRecord(context, username);
    // An unknown user still costs one verification, so timing does not tell whether it exists.
    if (!found && !oversized) await dummyVerify();
    const verified = found !== undefined && (await verifyPassword(found.passwordHash, password));
    if (!found || !verified) {
      await throttle.recordFailure(username, request.client);
      await record('invalid_credentials', found?.user);
      return { kind: 'invalid_credentials' };
    }
    if (found.user.disabled) {
      await record('disabled', found.user);
      return { kind: 'disabled' };
    }
    await throttle.recordSuccess(username, request.client ?? null);
    if (needsRehash(found.passwordHash, argon2)) {
      await context.db
        .updateTable('auth_users')
        .set({ password_hash: await hashPassword(password, argon2) })
        .where('id', '=', found.user.id)
        .execute();
    }
    const created = await sessions.create(found.user.id, {
      client: request.client,
      userAgent: request.userAgent,
    });
    await record('success', found.user, { session_id: created.session.id });
    return { kind: 'ok', user: found.user, ...created };
  };
}
