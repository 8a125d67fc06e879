/**
 * @module `firewarden db migrate` and `firewarden user create-admin`: the two commands that write
 * to the database from the command line. The admin password comes only from
 * `FIREWARDEN_ADMIN_PASSWORD`, never from an argument (arguments show in `ps` and shell history).
 */
import { createWebAuth, WebAuthError } from '@suite/web-auth';
import { firewardenAuditChain } from '../audit/audit-chain-files.js';
import { prepareDatabase } from '../server/prepare-database.js';
import { argon2Parameters } from '../server/services.js';
import type { Database } from '../store/database.js';
import { openDatabase } from '../store/open-database.js';
import type { CommandContext } from './command-context.js';
import { type Output, printJson, printLines, reportFailure } from './output.js';

export const adminPasswordVariable = 'FIREWARDEN_ADMIN_PASSWORD';

/** Applies pending migrations (explicitly asked for, so `migrate_on_start: false` does not block it). */
export async function migrateCommand(context: CommandContext, output: Output): Promise<void> {
  const opened = openDatabase<Database>(context.config.database);
  try {
    const result = await prepareDatabase(
      opened,
      { ...context.config.database, migrate_on_start: true },
      Date.now,
    );
    if (output.json) printJson({ ok: true, database: opened.location, ...result });
    else {
      printLines(
        result.applied.length === 0
          ? [`${opened.location}: up to date`]
          : [
              `${opened.location}: applied ${result.applied.length} migration(s)`,
              ...result.applied.map((name) => `  ${name}`),
              ...(result.backup ? [`backup of the previous file: ${result.backup}`] : []),
            ],
      );
    }
  } finally {
    await opened.db.destroy();
  }
}

export async function createAdminCommand(
  context: CommandContext,
  output: Output,
  username: string,
  environment = process.env,
): Promise<void> {
  const password = environment[adminPasswordVariable];
  if (!password) {
    return reportFailure(
      output,
      'ADMIN_PASSWORD_MISSING',
      `set ${adminPasswordVariable} to the new admin's password (at least 12 characters); it is never read from arguments`,
      2,
    );
  }
  const opened = openDatabase<Database>(context.config.database);
  try {
    await prepareDatabase(opened, { ...context.config.database, migrate_on_start: true }, Date.now);
    const auth = createWebAuth({
      db: opened.db,
      dialect: opened.dialect,
      argon2: argon2Parameters,
      audit: firewardenAuditChain(context.config),
    });
    try {
      const user = await auth.users.create({ username, password, role: 'admin' });
      await auth.audit.append({
        actor: 'cli',
        action: 'users.create_admin',
        target: user.id,
        outcome: 'success',
        detail: { username: user.username },
      });
      if (output.json)
        printJson({ ok: true, user: { id: user.id, username: user.username, role: user.role } });
      else printLines([`created admin ${user.username}`]);
    } catch (error) {
      if (!(error instanceof WebAuthError)) throw error;
      await auth.audit.append({
        actor: 'cli',
        action: 'users.create_admin',
        outcome: 'rejected',
        detail: { username: username.slice(0, 64), code: error.code },
      });
      reportFailure(
        output,
        error.code === 'USERNAME_TAKEN' ? 'CONFLICT' : 'VALIDATION_FAILED',
        error.message,
      );
    }
  } finally {
    await opened.db.destroy();
  }
}
