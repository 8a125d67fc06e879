/**
 * @module `firewarden update apply`: verified download (signed manifest, SHA-256 of the artefact),
 * backup of the configuration and the SQLite database, a restore point when the agent answers,
 * the new release unpacked beside the current one, the `current` link swapped, the new version
 * started and checked, and the link swapped back when it does not start.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cp, mkdir, mkdtemp, readFile, readlink, rename, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import SqliteDatabase from 'better-sqlite3';
import { AgentUnavailable, callAgent } from '../agent-protocol/agent-client.js';
import type { Config } from '../config/schema.js';
import { type InstallLayout, managesSystemd, unitNames } from '../lifecycle/layout.js';
import { systemctl, systemdRunning } from '../lifecycle/systemd.js';
import type { UpdateStatus } from './check-for-update.js';
import { download } from './download.js';
import { UpdateError } from './update-error.js';

const run = promisify(execFile);
const maxArtefactBytes = 512 * 1024 * 1024;
const artefactTimeoutMs = 10 * 60_000;
const healthTimeoutMs = 30_000;

interface ApplyResult {
  from: string;
  to: string;
  backup: string;
  /** The restore point id, or why there is none. */
  restorePoint: { id: string } | { skipped: string };
}

interface ApplyOptions {
  layout: InstallLayout;
  config: Config;
  configFile: string | null;
  status: UpdateStatus;
  now?: () => number;
  /** Progress lines for a person. */
  progress?: (line: string) => void;
}

export async function applyUpdate(options: ApplyOptions): Promise<ApplyResult> {
  const { layout, config, status } = options;
  const say = options.progress ?? (() => {});
  const from = await currentRelease(layout);

  say(`downloading ${status.artefactUrl}`);
  const artefact = await download(status.artefactUrl, maxArtefactBytes, artefactTimeoutMs);
  const sha256 = createHash('sha256').update(artefact).digest('hex');
  if (sha256 !== status.manifest.sha256) {
    throw new UpdateError(
      'UPDATE_BAD_HASH',
      `the artefact's SHA-256 is ${sha256}, the signed manifest says ${status.manifest.sha256}`,
    );
  }

  const stamp = new Date((options.now ?? Date.now)()).toISOString().replaceAll(':', '-');
  const backup = path.join(layout.backupsDir, `before-${status.latest}-${stamp}`);
  say(`backing up the configuration and the database to ${backup}`);
  await backUp(backup, config, options.configFile);

  const restorePoint = await createRestorePoint(config, status.latest);
  say(
    'id' in restorePoint
      ? `restore point ${restorePoint.id} created`
      : `no restore point: ${restorePoint.skipped}`,
  );

  const target = path.join(layout.releasesDir, status.latest);
  await unpack(artefact, target, status.latest, layout);
  say(`switching ${layout.currentLink} from ${from} to ${status.latest}`);
  await pointCurrentAt(layout, status.latest);
  try {
    await startAndCheck(layout, target, status.latest, config);
  } catch (error) {
    say(`${status.latest} did not start (${(error as Error).message}); rolling back to ${from}`);
    await pointCurrentAt(layout, from);
    if (managesSystemd(layout, systemdRunning())) await systemctl('restart', ...unitNames);
    await rm(target, { recursive: true, force: true });
    throw new UpdateError(
      'UPDATE_ROLLED_BACK',
      `${status.latest} did not start: ${(error as Error).message}; ${from} is running again (backup kept in ${backup})`,
    );
  }
  return { from, to: status.latest, backup, restorePoint };
}

async function currentRelease(layout: InstallLayout): Promise<string> {
  try {
    return path.basename(await readlink(layout.currentLink));
  } catch {
    throw new UpdateError(
      'UPDATE_NOT_INSTALLED',
      `${layout.currentLink} is not a release link: update apply works on installations made by packaging/install.sh`,
    );
  }
}

async function backUp(dir: string, config: Config, configFile: string | null): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  if (configFile) await cp(configFile, path.join(dir, path.basename(configFile)));
  // PostgreSQL is backed up by its own tools (pg_dump); the README says so.
  if (config.database.driver !== 'sqlite') return;
  let database: SqliteDatabase.Database;
  try {
    database = new SqliteDatabase(config.database.sqlite_path, { fileMustExist: true, readonly: true });
  } catch {
    return; // no database yet: nothing to keep
  }
  try {
    await database.backup(path.join(dir, path.basename(config.database.sqlite_path)));
  } finally {
    database.close();
  }
}

async function createRestorePoint(config: Config, version: string): Promise<ApplyResult['restorePoint']> {
  try {
    const answer = await callAgent(config.agent.socket_path, 'snapshot', {
      kind: 'manual',
      note: `before update to ${version}`,
    });
    if (answer.ok) return { id: (answer.result as { id: string }).id };
    return { skipped: `the agent refused: ${answer.error.message}` };
  } catch (error) {
    if (error instanceof AgentUnavailable) return { skipped: `the agent does not answer (${error.reason})` };
    throw error;
  }
}

/** Unpacks into a temporary folder beside the target, checks it is the announced release, renames. */
async function unpack(
  artefact: Buffer,
  target: string,
  version: string,
  layout: InstallLayout,
): Promise<void> {
  await mkdir(layout.releasesDir, { recursive: true });
  const staging = await mkdtemp(path.join(layout.releasesDir, `.${version}-`));
  try {
    const tarball = path.join(staging, '.artefact.tar.gz');
    await writeFile(tarball, artefact);
    // Only a signed, hash-checked artefact reaches tar; --no-same-owner keeps files root-owned.
    await run('tar', ['-xzf', tarball, '-C', staging, '--no-same-owner', '--no-same-permissions']);
    await rm(tarball);
    let announced: unknown;
    try {
      announced = JSON.parse(await readFile(path.join(staging, 'package.json'), 'utf8')).version;
    } catch {
      throw new UpdateError('UPDATE_ARTEFACT_INVALID', 'the artefact holds no package.json');
    }
    if (announced !== version) {
      throw new UpdateError(
        'UPDATE_ARTEFACT_INVALID',
        `the artefact is version ${String(announced)}, the manifest says ${version}`,
      );
    }
    await rm(target, { recursive: true, force: true });
    await rename(staging, target);
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    if (error instanceof UpdateError) throw error;
    throw new UpdateError(
      'UPDATE_ARTEFACT_INVALID',
      `cannot unpack the artefact: ${(error as Error).message}`,
    );
  }
}

/** Atomic swap: a new link renamed over `current`. */
async function pointCurrentAt(layout: InstallLayout, version: string): Promise<void> {
  const next = `${layout.currentLink}.next`;
  await rm(next, { force: true });
  await symlink(path.join('releases', version), next);
  await rename(next, layout.currentLink);
}

/**
 * Under systemd: restart both units and wait for the health route. Elsewhere (a test prefix, a
 * host without systemd): the new bin must run and report the announced version.
 */
async function startAndCheck(
  layout: InstallLayout,
  target: string,
  version: string,
  config: Config,
): Promise<void> {
  const bin = path.join(target, 'dist', 'cli.js');
  if (!managesSystemd(layout, systemdRunning())) {
    const { stdout } = await run(process.execPath, [bin, '--version'], { timeout: healthTimeoutMs }).catch(
      (error: Error) => {
        throw new Error(`${bin} --version failed: ${error.message.split('\n')[0]}`);
      },
    );
    if (stdout.trim() !== version) throw new Error(`${bin} reports version ${stdout.trim()}`);
    return;
  }
  await systemctl('restart', ...unitNames);
  const host = config.server.bind.includes(':') ? `[${config.server.bind}]` : config.server.bind;
  const url = `${config.tls.enabled ? 'https' : 'http'}://${host === '0.0.0.0' ? '127.0.0.1' : host}:${config.server.port}/api/v1/version`;
  const deadline = Date.now() + healthTimeoutMs;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      const body = (await response.json()) as { data?: { version?: string } };
      if (response.ok && body.data?.version === version) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`${url} did not answer version ${version} within ${healthTimeoutMs / 1000} s`);
}
