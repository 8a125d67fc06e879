/**
 * @module `firewarden db migrate`, `firewarden user create-admin` and the account commands
 * (`user disable|enable|role|password|unlock`): the commands that write to the database from the
 * command line. A password comes only from `FIREWARDEN_ADMIN_PASSWORD`, never from an argument
 * (arguments show in `ps` and shell history). Each account change is audited with actor `cli`.
 */
import { createWebAuth, type WebAuth, WebAuthError } from '@suite/web-auth';
import { firewardenAuditChain } from '../audit/audit-chain-files.js';
import {
  type AccountChange,
  changeAccount,
  setAccountPassword,
  unlockUsername,
} from '../auth/account-changes.js';
import { isRole, roles } from '../auth/roles.js';
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

/** The password from `FIREWARDEN_ADMIN_PASSWORD`, or undefined after reporting it missing (exit 2). */
function passwordFromEnvironment(
  output: Output,
  environment: NodeJS.ProcessEnv,
  whose: string,
): string | undefined {
  const password = environment[adminPasswordVariable];
  if (!password) {
    reportFailure(
      output,
      'ADMIN_PASSWORD_MISSING',
      `set ${adminPasswordVariable} to ${whose} (at least 12 characters); it is never read from arguments`,
      2,
    );
  }
  return password || undefined;
}

export async function createAdminCommand(
  context: CommandContext,
  output: Output,
  username: string,
  environment = process.env,
): Promise<void> {
  const password = passwordFromEnvironment(output, environment, "the new admin's password");
  if (password === undefined) return;
  await withAuth(context, async (auth) => {
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
  });
}

/** Opens (and migrates) the database, hands web-auth to `work`, closes. */
async function withAuth(context: CommandContext, work: (auth: WebAuth) => Promise<void>): Promise<void> {
  const opened = openDatabase<Database>(context.config.database);
  try {
    await prepareDatabase(opened, { ...context.config.database, migrate_on_start: true }, Date.now);
    await work(
      createWebAuth({
        db: opened.db,
        dialect: opened.dialect,
        argon2: argon2Parameters,
        // The keyed chain the server writes: an entry from here must verify with the rest.
        audit: firewardenAuditChain(context.config),
      }),
    );
  } finally {
    await opened.db.destroy();
  }
}

const cli = { actor: 'cli' };

/** web-auth's refusals in the CLI's codes (the API's codes, exit status 1). */
function reportAccountError(output: Output, error: unknown): void {
  if (!(error instanceof WebAuthError)) throw error;
  if (error.code === 'USER_NOT_FOUND') reportFailure(output, 'NOT_FOUND', 'no such user');
  else if (error.code === 'LAST_OF_ROLE') {
    reportFailure(
      output,
      'LAST_ADMIN',
      'this would leave no enabled admin: enable or promote another admin first',
    );
  } else reportFailure(output, 'VALIDATION_FAILED', error.message);
}

/** `user disable|enable <username>` and `user role <username> <role>`. */
export async function changeAccountCommand(
  context: CommandContext,
  output: Output,
  username: string,
  change: { role?: string; disabled?: boolean },
): Promise<void> {
  if (change.role !== undefined && !isRole(change.role)) {
    return reportFailure(output, 'VALIDATION_FAILED', `role must be one of ${roles.join(', ')}`, 2);
  }
  await withAuth(context, async (auth) => {
    try {
      const found = await auth.users.getByUsername(username);
      const user = await changeAccount(auth, found?.id ?? '', change as AccountChange, cli);
      if (output.json)
        printJson({
          ok: true,
          user: { id: user.id, username: user.username, role: user.role, disabled: user.disabled },
        });
      else
        printLines([
          `${user.username}: role ${user.role}, ${user.disabled ? 'disabled (sessions ended)' : 'enabled'}`,
        ]);
    } catch (error) {
      reportAccountError(output, error);
    }
  });
}

/** `user password <username>`: the new password from `FIREWARDEN_ADMIN_PASSWORD`; ends the user's sessions. */
export async function passwordCommand(
  context: CommandContext,
  output: Output,
  username: string,
  environment = process.env,
): Promise<void> {
  const password = passwordFromEnvironment(output, environment, 'the new password');
  if (password === undefined) return;
  await withAuth(context, async (auth) => {
    try {
      const found = await auth.users.getByUsername(username);
      const user = await setAccountPassword(auth, found?.id ?? '', password, cli);
      if (output.json) printJson({ ok: true, user: { id: user.id, username: user.username } });
      else printLines([`${user.username}: password changed, every session ended`]);
    } catch (error) {
      reportAccountError(output, error);
    }
  });
}

/** `user unlock <username>`: forgets the username's failed sign-ins (the server reads them from the database). */
export async function unlockCommand(
  context: CommandContext,
  output: Output,
  username: string,
): Promise<void> {
  await withAuth(context, async (auth) => {
    await unlockUsername(auth, username, cli);
    if (output.json) printJson({ ok: true, username });
    else printLines([`${username}: sign-in failures forgotten, lock lifted`]);
  });
}
