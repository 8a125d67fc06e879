/**
 * @module The `auth_` tables as kysely migrations the product merges into its own Migrator. The same
 * statements run on SQLite and PostgreSQL: ids are text (random UUIDs), timestamps are epoch
 * milliseconds in `bigint` columns (INTEGER affinity on SQLite), booleans are 0/1 integers.
 */
import type { Kysely, Migration } from 'kysely';

/** Every migration of this package; names start with `web-auth-` so they never collide with a product's. */
export const webAuthMigrations: Readonly<Record<string, Migration>> = Object.freeze({
  'web-auth-0001-users': {
    // biome-ignore lint/suspicious/noExplicitAny: kysely's Migration contract is Kysely<any>
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('auth_users')
        .addColumn('id', 'text', (column) => column.primaryKey())
        .addColumn('username', 'text', (column) => column.notNull())
        // Lower-cased username: the unique key that makes `Alice` and `alice` one account.
        .addColumn('username_key', 'text', (column) => column.notNull().unique())
        .addColumn('display_name', 'text')
        .addColumn('role', 'text', (column) => column.notNull())
        .addColumn('disabled', 'integer', (column) => column.notNull().defaultTo(0))
        .addColumn('password_hash', 'text', (column) => column.notNull())
        .addColumn('created_at', 'bigint', (column) => column.notNull())
        .addColumn('updated_at', 'bigint', (column) => column.notNull())
        .addColumn('password_changed_at', 'bigint', (column) => column.notNull())
        .execute();
    },
    // biome-ignore lint/suspicious/noExplicitAny: kysely's Migration contract is Kysely<any>
    async down(db: Kysely<any>) {
      await db.schema.dropTable('auth_users').execute();
    },
  },
  'web-auth-0002-sessions': {
    // biome-ignore lint/suspicious/noExplicitAny: kysely's Migration contract is Kysely<any>
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('auth_sessions')
        .addColumn('id', 'text', (column) => column.primaryKey())
        // SHA-256 (hex) of the cookie token; the token itself is never stored.
        .addColumn('token_hash', 'text', (column) => column.notNull().unique())
        .addColumn('user_id', 'text', (column) =>
          column.notNull().references('auth_users.id').onDelete('cascade'),
        )
        .addColumn('created_at', 'bigint', (column) => column.notNull())
        .addColumn('last_seen_at', 'bigint', (column) => column.notNull())
        .addColumn('expires_at', 'bigint', (column) => column.notNull())
        .addColumn('client', 'text')
        .addColumn('user_agent', 'text')
        .execute();
      await db.schema.createIndex('auth_sessions_user_id').on('auth_sessions').column('user_id').execute();
      await db.schema
        .createIndex('auth_sessions_expires_at')
        .on('auth_sessions')
        .column('expires_at')
        .execute();
    },
    // biome-ignore lint/suspicious/noExplicitAny: kysely's Migration contract is Kysely<any>
    async down(db: Kysely<any>) {
      await db.schema.dropTable('auth_sessions').execute();
    },
  },
  'web-auth-0003-audit': {
    // biome-ignore lint/suspicious/noExplicitAny: kysely's Migration contract is Kysely<any>
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('auth_audit')
        .addColumn('id', 'text', (column) => column.primaryKey())
        // Unique: two appenders that raced for the same position cannot both commit (no fork).
        .addColumn('seq', 'bigint', (column) => column.notNull().unique())
        .addColumn('at', 'bigint', (column) => column.notNull())
        .addColumn('actor', 'text')
        .addColumn('action', 'text', (column) => column.notNull())
        .addColumn('target', 'text')
        .addColumn('outcome', 'text', (column) => column.notNull())
        .addColumn('request_id', 'text')
        .addColumn('client', 'text')
        .addColumn('detail', 'text', (column) => column.notNull())
        .addColumn('prev_hash', 'text', (column) => column.notNull())
        .addColumn('hash', 'text', (column) => column.notNull())
        .execute();
      await db.schema.createIndex('auth_audit_at').on('auth_audit').column('at').execute();
      await db.schema.createIndex('auth_audit_actor').on('auth_audit').columns(['actor', 'seq']).execute();
      await db.schema.createIndex('auth_audit_action').on('auth_audit').columns(['action', 'seq']).execute();
    },
    // biome-ignore lint/suspicious/noExplicitAny: kysely's Migration contract is Kysely<any>
    async down(db: Kysely<any>) {
      await db.schema.dropTable('auth_audit').execute();
    },
  },
  'web-auth-0004-lockouts': {
    // biome-ignore lint/suspicious/noExplicitAny: kysely's Migration contract is Kysely<any>
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('auth_lockouts')
        // `user:<lower-cased username>` or `client:<address or /64>`.
        .addColumn('key', 'text', (column) => column.primaryKey())
        .addColumn('locked_until', 'bigint', (column) => column.notNull())
        .addColumn('failures', 'integer', (column) => column.notNull())
        .addColumn('created_at', 'bigint', (column) => column.notNull())
        .execute();
    },
    // biome-ignore lint/suspicious/noExplicitAny: kysely's Migration contract is Kysely<any>
    async down(db: Kysely<any>) {
      await db.schema.dropTable('auth_lockouts').execute();
    },
  },
  'web-auth-0005-audit-keyed': {
    // biome-ignore lint/suspicious/noExplicitAny: kysely's Migration contract is Kysely<any>
    async up(db: Kysely<any>) {
      // Signed positions in the chain: `checkpoint` (the last pruned entry, where verification
      // starts) and `verified` (how far a verification got, where the next incremental one starts).
      await db.schema
        .createTable('auth_audit_marks')
        .addColumn('name', 'text', (column) => column.primaryKey())
        .addColumn('seq', 'bigint', (column) => column.notNull())
        .addColumn('hash', 'text', (column) => column.notNull())
        // 1 when the entry at `seq` is keyed: no legacy entry may follow it.
        .addColumn('keyed', 'integer', (column) => column.notNull())
        .addColumn('at', 'bigint', (column) => column.notNull())
        .addColumn('mac', 'text', (column) => column.notNull())
        .execute();
      // Refused and unauthenticated requests, counted per kind and window instead of an entry each.
      await db.schema
        .createTable('auth_audit_refusals')
        .addColumn('kind', 'text', (column) => column.notNull())
        .addColumn('window_start', 'bigint', (column) => column.notNull())
        .addColumn('count', 'bigint', (column) => column.notNull())
        .addColumn('last_at', 'bigint', (column) => column.notNull())
        // The first request of the window, as canonical JSON.
        .addColumn('sample', 'text', (column) => column.notNull())
        .addPrimaryKeyConstraint('auth_audit_refusals_pk', ['kind', 'window_start'])
        .execute();
      await db.schema
        .createIndex('auth_audit_refusals_window')
        .on('auth_audit_refusals')
        .column('window_start')
        .execute();
    },
    // biome-ignore lint/suspicious/noExplicitAny: kysely's Migration contract is Kysely<any>
    async down(db: Kysely<any>) {
      await db.schema.dropTable('auth_audit_refusals').execute();
      await db.schema.dropTable('auth_audit_marks').execute();
    },
  },
});
