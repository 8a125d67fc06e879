/**
 * @module firewarden's own migrations, in order. Their names sort in the order they run.
 */

import type { SqlDialectName } from '@suite/web-auth';
import type { Migration } from 'kysely';
import { initialMigration } from './0001-initial.js';

export function firewardenMigrations(dialect: SqlDialectName): Record<string, Migration> {
  return { '0001-initial': initialMigration(dialect) };
}
