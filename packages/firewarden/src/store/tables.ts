/**
 * @module Row types of firewarden's own tables (users, sessions and audit belong to
 * `@suite/web-auth`). As in web-auth's tables, timestamps are epoch milliseconds in `bigint`
 * columns (PostgreSQL returns them as strings: read them through `toMillis`), JSON documents are text.
 */
import type { Generated } from 'kysely';

/** What a `bigint` column comes back as from either driver. */
type DbInteger = number | string | bigint;

interface SettingsTable {
  /** Dotted config key, e.g. `security.session_idle_timeout_minutes`. */
  key: string;
  /** JSON-encoded value. */
  value: string;
  updated_at: DbInteger;
  updated_by: string;
}

interface NotificationsTable {
  id: Generated<number>;
  created_at: DbInteger;
  severity: 'info' | 'warning' | 'critical';
  /** Machine-readable code, e.g. `FW_BACKEND_CONFLICT`. */
  code: string;
  title: string;
  message: string;
  /** JSON object or null. */
  details: string | null;
}

/** Read state is per user: one admin reading a notification does not hide it from another. */
interface NotificationReadsTable {
  notification_id: number;
  user_id: string;
  read_at: DbInteger;
}

/** A restore point: a full backend state with its hash. */
interface RestorePointsTable {
  id: string;
  kind: 'automatic' | 'manual';
  created_at: DbInteger;
  created_by: string;
  label: string | null;
  backend: string;
  state_sha256: string;
  /** JSON: ufw files, iptables-save v4 and v6. */
  state: string;
}

/** A transaction: a validated list of changes and its safe-apply life. */
export interface TransactionsTable {
  id: string;
  status: string;
  created_at: DbInteger;
  created_by: string;
  /** JSON list of actions. */
  actions: string;
  restore_point_id: string | null;
  confirm_deadline_at: DbInteger | null;
  finished_at: DbInteger | null;
  error: string | null;
}

/** An installed extension. */
interface ExtensionsTable {
  id: string;
  name: string;
  version: string;
  author: string;
  /** The validated `extension.yaml`, as JSON. */
  manifest: string;
  manifest_sha256: string;
  installed_at: DbInteger;
  installed_by: string;
  enabled: number;
}

/** One capability granted to one extension by an admin. */
interface ExtensionGrantsTable {
  extension_id: string;
  capability: string;
  granted_at: DbInteger;
  granted_by: string;
}

export interface FirewardenTables {
  settings: SettingsTable;
  notifications: NotificationsTable;
  notification_reads: NotificationReadsTable;
  restore_points: RestorePointsTable;
  transactions: TransactionsTable;
  extensions: ExtensionsTable;
  extension_grants: ExtensionGrantsTable;
}

/** A `bigint` column as a JavaScript number (epoch milliseconds fit in 2^53). */
export function toMillis(value: DbInteger): number {
  return typeof value === 'number' ? value : Number(value);
}
