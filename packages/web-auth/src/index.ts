/**
 * @module @suite/web-auth: users, argon2id passwords, server-side sessions with CSRF tokens, login
 * throttling and lockout, and a hash-chained audit trail over the product's Kysely database
 * (SQLite or PostgreSQL), with Hono middleware for sessions, CSRF, Host and Origin checks.
 */
export { type AuditChainFiles, auditChainFiles } from './audit/audit-files.js';
export {
  type AuditHead,
  AuditHeadError,
  type AuditHeadStore,
  fileAuditHead,
  memoryAuditHead,
} from './audit/audit-head.js';
export { AuditKeyError, loadOrCreateAuditKey, readAuditKey } from './audit/audit-key.js';
export {
  type AuditChainOptions,
  type AuditEntry,
  type AuditEntryInput,
  type AuditLog,
  type AuditPage,
  type AuditQuery,
  auditListMaxLimit,
  genesisHash,
} from './audit/audit-log.js';
export type { AuditPruneResult } from './audit/audit-retention.js';
export { auditEntryView } from './audit/audit-view.js';
export { canonicalJson, type JsonValue } from './audit/canonical-json.js';
export { legacyHash as unkeyedAuditHash } from './audit/chain-hash.js';
export type {
  AuditChainBroken,
  AuditChainIntact,
  AuditChainReason,
  AuditChainVerdict,
  VerifyOptions,
} from './audit/chain-verify.js';
export type { AuditRefusal, AuditRefusalInput, AuditRefusalQuery } from './audit/refusal-counter.js';
export { WebAuthError, type WebAuthErrorCode } from './errors.js';
export { type RequireCsrfOptions, requireCsrf } from './http/csrf-middleware.js';
export { type SessionGuardOptions, sessionGuard } from './http/guard-middleware.js';
export { type HostAllowListOptions, hostAllowList, requestHost } from './http/host-middleware.js';
export { type HostRules, isAllowedHost, parseHost } from './http/host-rules.js';
export { type OriginCheckOptions, originCheck } from './http/origin-middleware.js';
export { isAllowedOrigin, isWebSocketUpgrade, type OriginRules } from './http/origin-rules.js';
export { requestHeader, requestHostOf } from './http/request-headers.js';
export { type LoadSessionOptions, loadSession, requireSession } from './http/session-middleware.js';
export {
  type AuthErrorCode,
  type AuthErrorStatus,
  type AuthErrorWriter,
  type AuthState,
  authErrorStatus,
  isSafeMethod,
  type WebAuthEnv,
  type WebAuthVariables,
} from './http/types.js';
export {
  type AuthorizeUpgradeOptions,
  authorizeUpgrade,
  type RawHeaders,
  type UpgradeVerdict,
} from './http/upgrade.js';
export { type LoginRequest, type LoginResult, loginAuditAction } from './login/login.js';
export {
  type Argon2Parameters,
  defaultArgon2Parameters,
  hashPassword,
  needsRehash,
  parseArgon2Parameters,
  verifyPassword,
} from './passwords/argon2.js';
export {
  assertPasswordPolicy,
  defaultPasswordPolicy,
  exceedsMaxBytes,
  type PasswordPolicy,
} from './passwords/policy.js';
export { detectDialect, type SqlDialectName } from './schema/dialect.js';
export { withWebAuthMigrations } from './schema/migration-provider.js';
export { webAuthMigrations } from './schema/migrations.js';
export type { AuthDatabase } from './schema/tables.js';
export {
  clearSessionCookie,
  readSessionCookie,
  type SessionCookieOptions,
  serializeSessionCookie,
} from './sessions/cookie.js';
export {
  defaultSessionOptions,
  type NewSession,
  type Session,
  type SessionMetadata,
  type SessionOptions,
  type SessionStore,
  type ValidSession,
} from './sessions/session-store.js';
export { constantTimeEqual, csrfTokenFor } from './sessions/tokens.js';
export type { WebAuthSettings, WebAuthSettingsInput } from './settings.js';
export { clientKey } from './throttle/client-key.js';
export {
  defaultThrottleOptions,
  type LockoutOptions,
  type LoginThrottle,
  type ThrottleDecision,
  type ThrottleOptions,
} from './throttle/login-throttle.js';
export { isValidUsername, usernameMaxLength, usernameMinLength } from './users/fields.js';
export type { KeepEnabled, ListUsersOptions, NewUser, User, UserStore } from './users/user-store.js';
export { type UserView, userView } from './users/user-view.js';
export { createWebAuth, type LogoutRequest, type WebAuth, type WebAuthOptions } from './web-auth.js';
