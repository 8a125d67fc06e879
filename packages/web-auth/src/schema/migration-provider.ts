/**
 * @module A kysely MigrationProvider that merges this package's migrations with the product's, for
 * the product's own Migrator (kysely then runs them in name order).
 */
import type { Migration, MigrationProvider } from 'kysely';
import { webAuthMigrations } from './migrations.js';

/** The product's migrations plus `webAuthMigrations`; a name present in both is an error. */
export function withWebAuthMigrations(
  productMigrations: Readonly<Record<string, Migration>> = {},
): MigrationProvider {
  for (const name of Object.keys(productMigrations)) {
    if (name in webAuthMigrations) throw new Error(`migration name ${name} is reserved by @suite/web-auth`);
  }
  return { getMigrations: async () => ({ ...webAuthMigrations, ...productMigrations }) };
}
