/**
 * @module Server-side sessions: create (token returned once, only its SHA-256 stored), validate with
 * idle timeout and absolute lifetime, touch at most every `touchIntervalSeconds` so most requests
 * only read, delete on logout, end all of a user's sessions, and purge expired rows.
 */
import { randomUUID } from 'node:crypto';
import type { StoreContext } from '../context.js';
import { type AuthSessionRow, type AuthUserRow, toNumber } from '../schema/tables.js';
import { toUser, type User } from '../users/user-store.js';
import type { SessionCache } from './session-cache.js';
import { csrfTokenFor, generateSessionToken, hashSessionToken, isWellFormedToken } from './tokens.js';

export interface SessionOptions {
  /** A session unused for this long ends; default 1,800 s (30 minutes). */
  idleTimeoutSeconds: number;
  /** A session ends this long after sign-in whatever its use; default 43,200 s (12 hours). */
  absoluteLifetimeSeconds: number;
  /** `last_seen_at` is written at most this often; default 60 s. */
  touchIntervalSeconds: number;
  /**
   * Keep validated sessions in process memory this long (see session-cache.ts); default 0 (off:
   * every validation reads the database). Changes made by this process apply at once; changes made
   * by another process on the same database apply within this delay.
   */
  cacheSeconds: number;
  /** Most sessions cached; default 10,000. */
  cacheMaxEntries: number;
}

export const defaultSessionOptions: Readonly<SessionOptions> = Object.freeze({
  idleTimeoutSeconds: 1_800,
  absoluteLifetimeSeconds: 43_200,
  touchIntervalSeconds: 60,
  cacheSeconds: 0,
  cacheMaxEntries: 10_000,
});

export interface Session {
  id: string;
  userId: string;
  /** Epoch milliseconds. */
  createdAt: number;
  lastSeenAt: number;
  /** The absolute end; the idle end is `lastSeenAt + idleTimeoutSeconds`. */
  expiresAt: number;
  client: string | null;
  userAgent: string | null;
}

export interface NewSession {
  /** The cookie value: give it to the client once, it is not stored. */
  token: string;
  /** The CSRF token of this session. */
  csrf: string;
  session: Session;
}

export interface ValidSession {
  user: User;
  session: Session;
  csrf: string;
}

export interface SessionMetadata {
  client?: string | null;
  userAgent?: string | null;
}

export interface SessionStore {
  create(userId: string, metadata?: SessionMetadata): Promise<NewSession>;
  /** The live session and its (enabled) user for a cookie token, or undefined. Expired rows are deleted. */
  validate(token: string): Promise<ValidSession | undefined>;
  /** Logout: deletes the session; true when one existed. */
  revoke(token: string): Promise<boolean>;
  /** Ends every session of a user; returns how many. */
  revokeAllForUser(userId: string): Promise<number>;
  listForUser(userId: string): Promise<Session[]>;
  /** Deletes idle-expired and lifetime-expired rows; returns how many. */
  purgeExpired(): Promise<number>;
}

const metadataMaxLength = 256;

function bounded(value: string | null | undefined): string | null {
  return typeof value === 'string' ? value.slice(0, metadataMaxLength) : null;
}

/** A session joined with its user, as the validation query returns it. */
type ValidationRow = AuthUserRow &
  Pick<AuthSessionRow, 'token_hash' | 'last_seen_at' | 'expires_at' | 'client' | 'user_agent'> & {
    session_id: string;
    session_created_at: AuthSessionRow['created_at'];
  };

function toSession(row: AuthSessionRow): Session {
  return {
    id: row.id,
    userId: row.user_id,
    createdAt: toNumber(row.created_at),
    lastSeenAt: toNumber(row.last_seen_at),
    expiresAt: toNumber(row.expires_at),
    client: row.client,
    userAgent: row.user_agent,
  };
}

export function createSessionStore(
  context: StoreContext,
  options: SessionOptions,
  cache: SessionCache,
): SessionStore {
  const { db, now } = context;
  // The per-request lookup, compiled once: building and compiling it was a third of its cost.
  const validationQuery = db
    .selectFrom('auth_sessions as s')
    .innerJoin('auth_users as u', 'u.id', 's.user_id')
    .selectAll('u')
    .select([
      's.id as session_id',
      's.token_hash',
      's.created_at as session_created_at',
      's.last_seen_at',
      's.expires_at',
      's.client',
      's.user_agent',
    ])
    .where('s.token_hash', '=', '')
    .compile();
  const idleMs = options.idleTimeoutSeconds * 1000;
  const touchMs = options.touchIntervalSeconds * 1000;

  function isOver({ user, session }: { user: User; session: Session }, at: number): boolean {
    return at >= session.expiresAt || at - session.lastSeenAt >= idleMs || user.disabled;
  }

  async function lookup(
    token: string,
    tokenHash: string,
  ): Promise<{ user: User; session: Session; csrf: string } | undefined> {
    const result = await db.executeQuery<ValidationRow>({ ...validationQuery, parameters: [tokenHash] });
    const row = result.rows[0];
    if (!row) return undefined;
    const session = toSession({
      id: row.session_id,
      token_hash: row.token_hash,
      user_id: row.id,
      created_at: row.session_created_at,
      last_seen_at: row.last_seen_at,
      expires_at: row.expires_at,
      client: row.client,
      user_agent: row.user_agent,
    });
    const user = toUser(row);
    const csrf = csrfTokenFor(token);
    cache.set(tokenHash, user, session, csrf);
    return { user, session, csrf };
  }

  return {
    async create(userId, metadata = {}) {
      const token = generateSessionToken();
      const at = now();
      const row: AuthSessionRow = {
        id: randomUUID(),
        token_hash: hashSessionToken(token),
        user_id: userId,
        created_at: at,
        last_seen_at: at,
        expires_at: at + options.absoluteLifetimeSeconds * 1000,
        client: bounded(metadata.client),
        user_agent: bounded(metadata.userAgent),
      };
      await db.insertInto('auth_sessions').values(row).execute();
      return { token, csrf: csrfTokenFor(token), session: toSession(row) };
    },

    async validate(token) {
      if (!isWellFormedToken(token)) return undefined;
      const tokenHash = hashSessionToken(token);
      const at = now();
      const cached = cache.get(tokenHash);
      let found = cached ?? (await lookup(token, tokenHash));
      // A cached copy may be older than the row (another process touched it): ask the row before ending it.
      if (cached && isOver(cached, at)) found = await lookup(token, tokenHash);
      if (!found) return undefined;
      const { user, session, csrf } = found;
      if (isOver(found, at)) {
        cache.forgetToken(tokenHash);
        await db.deleteFrom('auth_sessions').where('id', '=', session.id).execute();
        return undefined;
      }
      if (at - session.lastSeenAt >= touchMs) {
        await db
          .updateTable('auth_sessions')
          .set({ last_seen_at: at })
          .where('id', '=', session.id)
          .execute();
        session.lastSeenAt = at; // also updates the cached copy
      }
      // Copies: a caller changing them must not change the cache.
      return { user: { ...user }, session: { ...session }, csrf };
    },

    async revoke(token) {
      if (!isWellFormedToken(token)) return false;
      const tokenHash = hashSessionToken(token);
      cache.forgetToken(tokenHash);
      const result = await db
        .deleteFrom('auth_sessions')
        .where('token_hash', '=', tokenHash)
        .executeTakeFirst();
      return result.numDeletedRows > 0n;
    },

    async revokeAllForUser(userId) {
      cache.forgetUser(userId);
      const result = await db.deleteFrom('auth_sessions').where('user_id', '=', userId).executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    async listForUser(userId) {
      const rows = await db
        .selectFrom('auth_sessions')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('created_at', 'desc')
        .execute();
      return rows.map(toSession);
    },

    async purgeExpired() {
      const at = now();
      const result = await db
        .deleteFrom('auth_sessions')
        .where((eb) => eb.or([eb('expires_at', '<=', at), eb('last_seen_at', '<=', at - idleMs)]))
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
