/**
 * @module `createWebAuth`: one object holding the users, sessions, throttle and audit stores over the
 * product's Kysely instance, with the sign-in and sign-out flows.
 */
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { memoryAuditHead } from './audit/audit-head.js';
import { type AuditChainOptions, type AuditLog, createAuditLog } from './audit/audit-log.js';
import type { StoreContext } from './context.js';
import { createLogin, type LoginRequest, type LoginResult } from './login/login.js';
import { createDummyVerifier } from './passwords/argon2.js';
import { detectDialect, type SqlDialectName } from './schema/dialect.js';
import type { AuthDatabase } from './schema/tables.js';
import { SessionCache } from './sessions/session-cache.js';
import { createSessionStore, type SessionStore } from './sessions/session-store.js';
import { resolveSettings, type WebAuthSettings, type WebAuthSettingsInput } from './settings.js';
import { createLoginThrottle, type LoginThrottle } from './throttle/login-throttle.js';
import { createUserStore, type UserStore } from './users/user-store.js';

export interface WebAuthOptions extends WebAuthSettingsInput {
  /** The product's database (SQLite or PostgreSQL) with `webAuthMigrations` applied. */
  // biome-ignore lint/suspicious/noExplicitAny: the product's own database type is none of our business
  db: Kysely<any>;
  /** Detected from the Kysely adapter when omitted. */
  dialect?: SqlDialectName;
  /** Epoch milliseconds; inject a fake clock in tests. Default `Date.now`. */
  now?: () => number;
  /**
   * The audit chain's key and head, kept outside the database (`auditChainFiles(dir)`). Without
   * it the key is random and the head in memory: the chain then verifies only within this
   * process, so a product must always pass one.
   */
  audit?: AuditChainOptions;
}

export interface LogoutRequest {
  token: string | undefined;
  /** Who signs out (recorded in the audit entry). */
  actor?: string | null;
  client?: string | null;
  requestId?: string | null;
}

export interface WebAuth {
  readonly users: UserStore;
  readonly sessions: SessionStore;
  readonly throttle: LoginThrottle;
  readonly audit: AuditLog;
  /** The effective settings, defaults filled in. */
  readonly settings: WebAuthSettings;
  login(request: LoginRequest): Promise<LoginResult>;
  /** Deletes the session (if any) and records `auth.logout`; true when a session existed. */
  logout(request: LogoutRequest): Promise<boolean>;
  /** Deletes expired sessions and lock rows. */
  purgeExpired(): Promise<{ sessions: number; lockouts: number }>;
}

export function createWebAuth(options: WebAuthOptions): WebAuth {
  const context: StoreContext = {
    // Our queries name snake_case columns and read raw rows: a product plugin (CamelCasePlugin...) must not rewrite them.
    db: (options.db as Kysely<AuthDatabase>).withoutPlugins(),
    dialect: options.dialect ?? detectDialect(options.db),
    now: options.now ?? Date.now,
  };
  const settings = resolveSettings(options);
  const { argon2, passwordPolicy, sessions: sessionOptions, throttle: throttleOptions } = settings;

  const sessionCache = new SessionCache(
    sessionOptions.cacheSeconds * 1000,
    sessionOptions.cacheMaxEntries,
    context.now,
  );
  const users = createUserStore(context, { argon2, policy: passwordPolicy, sessionCache });
  const sessions = createSessionStore(context, sessionOptions, sessionCache);
  const throttle = createLoginThrottle(context, throttleOptions);
  const audit = createAuditLog(context, options.audit ?? { key: randomBytes(32), head: memoryAuditHead() });
  const login = createLogin({
    context,
    sessions,
    throttle,
    audit,
    argon2,
    policy: passwordPolicy,
    dummyVerify: createDummyVerifier(argon2),
  });

  return {
    users,
    sessions,
    throttle,
    audit,
    settings,
    login,
    async logout(request) {
      const ended = request.token === undefined ? false : await sessions.revoke(request.token);
      // A sign-out without a session changes nothing and costs the caller nothing: counted, so a
      // flood of them cannot grow the chain.
      if (ended)
        await audit.append({
          actor: request.actor ?? null,
          action: 'auth.logout',
          outcome: 'success',
          requestId: request.requestId ?? null,
          client: request.client ?? null,
        });
      else
        await audit.countRefusal({
          kind: 'auth.logout no_session',
          sample: { client: request.client ?? null, request_id: request.requestId ?? null },
        });
      return ended;
    },
    async purgeExpired() {
      return { sessions: await sessions.purgeExpired(), lockouts: await throttle.purgeExpired() };
    },
  };
}
