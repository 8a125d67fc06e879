/**
 * @module First migration of firewarden's own tables; the same statements for SQLite and
 * PostgreSQL (only the auto-increment key differs); timestamps are epoch milliseconds.
 */

import type { SqlDialectName } from '@suite/web-auth';
import type { Kysely, Migration } from 'kysely';

export function initialMigration(dialect: SqlDialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('settings')
        .addColumn('key', 'text', (column) => column.primaryKey())
        .addColumn('value', 'text', (column) => column.notNull())
        .addColumn('updated_at', 'bigint', (column) => column.notNull())
        .addColumn('updated_by', 'text', (column) => column.notNull())
        .execute();

      await db.schema
        .createTable('notifications')
        .addColumn('id', dialect === 'postgres' ? 'serial' : 'integer', (column) =>
          dialect === 'postgres' ? column.primaryKey() : column.primaryKey().autoIncrement(),
        )
        .addColumn('created_at', 'bigint', (column) => column.notNull())
        .addColumn('severity', 'text', (column) => column.notNull())
        .addColumn('code', 'text', (column) => column.notNull())
        .addColumn('title', 'text', (column) => column.notNull())
        .addColumn('message', 'text', (column) => column.notNull())
        .addColumn('details', 'text')
        .execute();
      await db.schema
        .createIndex('notifications_created_at')
        .on('notifications')
        .column('created_at')
        .execute();

      await db.schema
        .createTable('notification_reads')
        .addColumn('notification_id', 'integer', (column) =>
          column.notNull().references('notifications.id').onDelete('cascade'),
        )
        .addColumn('user_id', 'text', (column) => column.notNull())
        .addColumn('read_at', 'bigint', (column) => column.notNull())
        .addPrimaryKeyConstraint('notification_reads_pk', ['notification_id', 'user_id'])
        .execute();

      await db.schema
        .createTable('restore_points')
        .addColumn('id', 'text', (column) => column.primaryKey())
        .addColumn('kind', 'text', (column) => column.notNull())
        .addColumn('created_at', 'bigint', (column) => column.notNull())
        .addColumn('created_by', 'text', (column) => column.notNull())
        .addColumn('label', 'text')
        .addColumn('backend', 'text', (column) => column.notNull())
        .addColumn('state_sha256', 'text', (column) => column.notNull())
        .addColumn('state', 'text', (column) => column.notNull())
        .execute();
      await db.schema
        .createIndex('restore_points_kind_created_at')
        .on('restore_points')
        .columns(['kind', 'created_at'])
        .execute();

      await db.schema
        .createTable('transactions')
        .addColumn('id', 'text', (column) => column.primaryKey())
        .addColumn('status', 'text', (column) => column.notNull())
        .addColumn('created_at', 'bigint', (column) => column.notNull())
        .addColumn('created_by', 'text', (column) => column.notNull())
        .addColumn('actions', 'text', (column) => column.notNull())
        .addColumn('restore_point_id', 'text', (column) => column.references('restore_points.id'))
        .addColumn('confirm_deadline_at', 'bigint')
        .addColumn('finished_at', 'bigint')
        .addColumn('error', 'text')
        .execute();

      await db.schema
        .createTable('extensions')
        .addColumn('id', 'text', (column) => column.primaryKey())
        .addColumn('name', 'text', (column) => column.notNull())
        .addColumn('version', 'text', (column) => column.notNull())
        .addColumn('author', 'text', (column) => column.notNull())
        .addColumn('manifest', 'text', (column) => column.notNull())
        .addColumn('manifest_sha256', 'text', (column) => column.notNull())
        .addColumn('installed_at', 'bigint', (column) => column.notNull())
        .addColumn('installed_by', 'text', (column) => column.notNull())
        .addColumn('enabled', 'integer', (column) => column.notNull().defaultTo(1))
        .execute();

      await db.schema
        .createTable('extension_grants')
        .addColumn('extension_id', 'text', (column) =>
          column.notNull().references('extensions.id').onDelete('cascade'),
        )
        .addColumn('capability', 'text', (column) => column.notNull())
        .addColumn('granted_at', 'bigint', (column) => column.notNull())
        .addColumn('granted_by', 'text', (column) => column.notNull())
        .addPrimaryKeyConstraint('extension_grants_pk', ['extension_id', 'capability'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      for (const table of [
        'extension_grants',
        'extensions',
        'transactions',
        'restore_points',
        'notification_reads',
        'notifications',
        'settings',
      ]) {
        await db.schema.dropTable(table).execute();
      }
    },
  };
}
