/**
 * @module Row types of the `auth_` tables as the drivers return them: PostgreSQL hands `bigint`
 * columns back as strings, SQLite as numbers, so timestamps are read through `toMillis`.
 */

type DbInteger = number | string | bigint;

export interface AuthUserRow {
  id: string;
  username: string;
  username_key: string;
  display_name: string | null;
  role: string;
  disabled: number;
  password_hash: string;
  created_at: DbInteger;
  updated_at: DbInteger;
  password_changed_at: DbInteger;
}

export interface AuthSessionRow {
  id: string;
  token_hash: string;
  user_id: string;
  created_at: DbInteger;
  last_seen_at: DbInteger;
  expires_at: DbInteger;
  client: string | null;
  user_agent: string | null;
}

export interface AuthAuditRow {
  id: string;
  seq: DbInteger;
  at: DbInteger;
  actor: string | null;
  action: string;
  target: string | null;
  outcome: string;
  request_id: string | null;
  client: string | null;
  detail: string;
  prev_hash: string;
  hash: string;
}

interface AuthAuditMarkRow {
  name: string;
  seq: DbInteger;
  hash: string;
  keyed: number;
  at: DbInteger;
  mac: string;
}

interface AuthAuditRefusalRow {
  kind: string;
  window_start: DbInteger;
  count: DbInteger;
  last_at: DbInteger;
  sample: string;
}

interface AuthLockoutRow {
  key: string;
  locked_until: DbInteger;
  failures: DbInteger;
  created_at: DbInteger;
}

export interface AuthDatabase {
  auth_users: AuthUserRow;
  auth_sessions: AuthSessionRow;
  auth_audit: AuthAuditRow;
  auth_lockouts: AuthLockoutRow;
  auth_audit_marks: AuthAuditMarkRow;
  auth_audit_refusals: AuthAuditRefusalRow;
}

/** A `bigint` column as a JavaScript number (epoch milliseconds and sequence numbers fit in 2^53). */
export function toNumber(value: DbInteger): number {
  return typeof value === 'number' ? value : Number(value);
}
