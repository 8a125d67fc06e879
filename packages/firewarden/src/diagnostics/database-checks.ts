/**
 * @module Diagnostics that read the database: reachability, migrations, the audit chain and
 * whether an admin exists. Read-only: nothing is created or migrated.
 */

import type { SqlDialectName } from '@suite/web-auth';
import { type Kysely, sql } from 'kysely';
import { migrationSets } from '../server/migration-sets.js';
import type { Database } from '../store/database.js';
import { migrationStatus } from '../store/migrate.js';
import { type AuditChainCheckOptions, auditChainCheck } from './audit-chain-check.js';
import type { Check } from './check.js';

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: SqlDialectName;
  location: string;
}

export async function databaseChecks(
  handle: DatabaseHandle,
  audit: AuditChainCheckOptions,
): Promise<Check[]> {
  try {
    await sql`select 1`.execute(handle.db);
  } catch (error) {
    return [
      {
        name: 'database',
        status: 'fail',
        message: `${handle.dialect} at ${handle.location} does not answer: ${(error as Error).message}`,
      },
    ];
  }
  const checks: Check[] = [
    {
      name: 'database',
      status: 'ok',
      message: `${handle.dialect} at ${handle.location}`,
      details: { driver: handle.dialect, location: handle.location },
    },
  ];
  const statuses = await migrationStatus(handle.db as never, migrationSets(handle.dialect));
  const pending = statuses.flatMap((status) => status.pending.map((name) => `${status.owner}/${name}`));
  const unknown = statuses.flatMap((status) => status.unknown.map((name) => `${status.owner}/${name}`));
  checks.push(
    unknown.length > 0
      ? { name: 'migrations', status: 'fail', message: `migrated by a newer version: ${unknown.join(', ')}` }
      : pending.length > 0
        ? {
            name: 'migrations',
            status: 'warn',
            message: `${pending.length} pending (serve applies them; or run \`firewarden db migrate\`)`,
            details: { pending },
          }
        : { name: 'migrations', status: 'ok', message: 'up to date', details: { statuses } },
  );
  if (pending.length > 0 || unknown.length > 0) return checks;

  checks.push(await auditChainCheck(handle.db, handle.dialect, audit));
  const admins = await handle.db
    .selectFrom('auth_users')
    .where('role', '=', 'admin')
    .where('disabled', '=', 0)
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .executeTakeFirstOrThrow();
  checks.push(
    Number(admins.count) > 0
      ? { name: 'users', status: 'ok', message: `${admins.count} active admin(s)` }
      : {
          name: 'users',
          status: 'warn',
          message: 'no active admin: run `FIREWARDEN_ADMIN_PASSWORD=... firewarden user create-admin`',
        },
  );
  return checks;
}
