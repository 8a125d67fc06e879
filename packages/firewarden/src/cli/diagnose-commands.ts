/**
 * @module `firewarden doctor`, `preflight` and `status`: read-only looks at the installation.
 * None of them creates or migrates the database.
 */
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { type Check, worstStatus } from '../diagnostics/check.js';
import type { DatabaseHandle } from '../diagnostics/database-checks.js';
import { releaseTreeCheck } from '../diagnostics/release-checks.js';
import { runDiagnostics } from '../diagnostics/run-diagnostics.js';
import { installLayout } from '../lifecycle/layout.js';
import type { Database } from '../store/database.js';
import { openDatabase } from '../store/open-database.js';
import { appVersion } from '../version.js';
import type { CommandContext } from './command-context.js';
import { checksTable, type Output, printJson, printLines } from './output.js';

interface OpenedForReading {
  handle: DatabaseHandle | null;
  problem?: Omit<Check, 'name'>;
  close: () => Promise<void>;
}

function openForReading({ config }: CommandContext): OpenedForReading {
  if (config.database.driver === 'sqlite' && !existsSync(config.database.sqlite_path)) {
    return {
      handle: null,
      problem: {
        status: 'warn',
        message: `${config.database.sqlite_path} does not exist yet (serve, db migrate or user create-admin creates it)`,
      },
      close: async () => {},
    };
  }
  try {
    const opened = openDatabase<Database>(config.database, { create: false });
    return {
      handle: { db: opened.db, dialect: opened.dialect, location: opened.location },
      close: () => opened.db.destroy(),
    };
  } catch (error) {
    return {
      handle: null,
      problem: { status: 'fail', message: (error as Error).message },
      close: async () => {},
    };
  }
}

async function diagnose(
  context: CommandContext,
  extra: Check[],
  includeBackend: boolean,
  fullAuditVerify = false,
): Promise<Check[]> {
  const opened = openForReading(context);
  try {
    const checks = await runDiagnostics({
      config: context.config,
      configFile: context.configFile,
      database: opened.handle,
      databaseProblem: opened.problem,
      includeBackend,
      fullAuditVerify,
    });
    return [...checks, ...extra];
  } finally {
    await opened.close();
  }
}

function report(output: Output, checks: Check[]): void {
  const status = worstStatus(checks);
  if (output.json) printJson({ ok: status !== 'fail', status, checks });
  else printLines([...checksTable(checks), '', `overall: ${status.toUpperCase()}`]);
  if (status === 'fail') process.exitCode = 1;
}

/**
 * Config, database, migrations, permissions, audit chain (incremental; every entry with
 * `fullAudit`), agent, the release tree under `prefix`.
 */
export async function doctorCommand(
  context: CommandContext,
  output: Output,
  prefix = '/',
  fullAudit = false,
): Promise<void> {
  report(output, await diagnose(context, [await releaseTreeCheck(installLayout(prefix))], false, fullAudit));
}

/** Everything doctor checks, plus the firewall tools, the Node version and whether the port is free. */
export async function preflightCommand(context: CommandContext, output: Output): Promise<void> {
  const extra = [nodeVersionCheck(), await portCheck(context.config.server.bind, context.config.server.port)];
  report(output, await diagnose(context, extra, true));
}

/** A one-screen summary; exit 1 only when the database cannot be read. */
export async function statusCommand(context: CommandContext, output: Output): Promise<void> {
  const checks = await diagnose(context, [], true);
  const byName = new Map(checks.map((check) => [check.name, check]));
  const summary = {
    version: appVersion,
    config_file: context.configFile,
    listen: `${context.config.tls.enabled ? 'https' : 'http'}://${context.config.server.bind}:${context.config.server.port}`,
    database: byName.get('database')?.message ?? null,
    migrations: byName.get('migrations')?.message ?? null,
    users: byName.get('users')?.message ?? null,
    backend: byName.get('backend')?.message ?? null,
    agent: byName.get('agent')?.message ?? null,
    firewall: 'rules and ownership come from the agent',
  };
  const failed = byName.get('database')?.status === 'fail';
  if (output.json) printJson({ ok: !failed, ...summary });
  else {
    const width = Math.max(...Object.keys(summary).map((key) => key.length));
    printLines(Object.entries(summary).map(([key, value]) => `${key.padEnd(width)}  ${value ?? '-'}`));
  }
  if (failed) process.exitCode = 1;
}

function nodeVersionCheck(): Check {
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  const supported = major > 20 || (major === 20 && minor >= 19);
  return {
    name: 'node',
    status: supported ? 'ok' : 'fail',
    message: supported ? `Node ${process.version}` : `Node ${process.version}: 20.19 or later is needed`,
  };
}

function portCheck(host: string, port: number): Promise<Check> {
  if (port === 0) return Promise.resolve({ name: 'port', status: 'ok', message: 'port 0: any free port' });
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) =>
      resolve({
        name: 'port',
        status: 'warn',
        message: `${host}:${port} cannot be bound now (${error.code}): in use (a running server?) or needs privileges`,
      }),
    );
    probe.listen(port, host, () => {
      probe.close(() => resolve({ name: 'port', status: 'ok', message: `${host}:${port} is free` }));
    });
  });
}
