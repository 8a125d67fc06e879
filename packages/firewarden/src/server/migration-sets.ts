/**
 * @module The migrations of the firewarden database: web-auth's tables (users, sessions, audit,
 * lockouts) and firewarden's own, each owner with its own bookkeeping table.
 */

import type { SqlDialectName } from '@suite/web-auth';
import { webAuthMigrations } from '@suite/web-auth';
import type { MigrationSet } from '../store/migrate.js';
import { firewardenMigrations } from '../store/migrations/index.js';

export function migrationSets(dialect: SqlDialectName): MigrationSet[] {
  return [
    {
      owner: 'web-auth',
      migrations: { ...webAuthMigrations },
      tableName: 'web_auth_migration',
      lockTableName: 'web_auth_migration_lock',
    },
    {
      owner: 'firewarden',
      migrations: firewardenMigrations(dialect),
      tableName: 'firewarden_migration',
      lockTableName: 'firewarden_migration_lock',
    },
  ];
}
