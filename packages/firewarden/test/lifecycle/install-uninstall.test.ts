/**
 * @module Tests: `packaging/install.sh` and `firewarden uninstall` on a private root (`--prefix`
 * with copies of the host's account files): user, group, folders, modes, owners, config, release
 * links and units; idempotence; --dry-run; the release root-owned and writable by root only
 * whoever owns the source, and `doctor` failing a release tree that is not; what uninstall keeps,
 * from flags and from terminal answers; the host's iptables rules byte for byte the same before
 * and after.
 */
import { execFile } from 'node:child_process';
import {
  chmod,
  chown,
  copyFile,
  lstat,
  mkdir,
  mkdtemp,
  readFile,
  readlink,
  realpath,
  rm,
  stat,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeEach, describe, expect, test } from 'vitest';
import { onTerminal } from '../support/on-terminal.js';
import { runCli } from '../support/running-bin.js';

const run = promisify(execFile);
const installScript = fileURLToPath(new URL('../../packaging/install.sh', import.meta.url));
const isRoot = process.getuid?.() === 0;
const scratch = await mkdtemp(path.join(tmpdir(), 'firewarden-lifecycle-'));
let root: string;
let release: string;

async function firewallRules(): Promise<string> {
  const save = async (tool: string) => {
    try {
      return (await run(tool, [], { maxBuffer: 64 * 1024 * 1024 })).stdout.replace(/^#.*\n/gm, '');
    } catch (error) {
      return `(${tool} unavailable: ${(error as NodeJS.ErrnoException).code})`;
    }
  };
  return `${await save('iptables-save')}\n${await save('ip6tables-save')}`;
}

function install(...args: string[]) {
  return run('sh', [installScript, '--prefix', root, '--release', release, ...args]);
}

/** Every path under the root with its type, mode, owner and link target. */
async function snapshot(dir = root, out: string[] = []): Promise<string[]> {
  const { readdir } = await import('node:fs/promises');
  for (const name of (await readdir(dir)).sort()) {
    const full = path.join(dir, name);
    const info = await lstat(full);
    const extra = info.isSymbolicLink()
      ? ` -> ${await readlink(full)}`
      : info.isFile()
        ? ` ${info.size}`
        : '';
    out.push(`${full.slice(root.length)} ${info.mode.toString(8)} ${info.uid}:${info.gid}${extra}`);
    if (info.isDirectory()) await snapshot(full, out);
  }
  return out;
}

const accountOf = async (file: 'passwd' | 'group') =>
  (await readFile(path.join(root, 'etc', file), 'utf8'))
    .split('\n')
    .find((line) => line.startsWith('firewarden:'));

beforeEach(async () => {
  root = await mkdtemp(path.join(scratch, 'root-'));
  await mkdir(path.join(root, 'etc'));
  for (const file of ['passwd', 'group', 'shadow', 'gshadow']) {
    await copyFile(path.join('/etc', file), path.join(root, 'etc', file)).catch(() => {});
  }
  release = path.join(root, '..', `${path.basename(root)}-release`);
  await mkdir(path.join(release, 'dist'), { recursive: true });
  await writeFile(path.join(release, 'package.json'), '{"name":"firewarden","version":"1.2.3"}');
  await writeFile(path.join(release, 'dist', 'cli.js'), 'console.log("firewarden 1.2.3")\n', { mode: 0o755 });
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe.skipIf(!isRoot)('install.sh', () => {
  test('creates the account, folders, config, release and units, and leaves firewall rules alone', async () => {
    const rulesBefore = await firewallRules();
    const { stdout } = await install();
    expect(stdout).toContain('systemd is not running here (or --prefix was given)');
    const user = (await accountOf('passwd'))!.split(':');
    const group = (await accountOf('group'))!.split(':');
    expect(user[6]).toBe('/usr/sbin/nologin');
    expect(user[3]).toBe(group[2]);
    const [uid, gid] = [Number(user[2]), Number(group[2])];
    expect(uid).toBeLessThan(1000); // a system account

    const expectDir = async (at: string, mode: number, owner: [number, number]) => {
      const info = await stat(path.join(root, at));
      expect(info.isDirectory(), at).toBe(true);
      expect([info.mode & 0o777, info.uid, info.gid], at).toEqual([mode, ...owner]);
    };
    await expectDir('etc/firewarden', 0o750, [0, gid]);
    await expectDir('var/lib/firewarden', 0o750, [uid, gid]);
    await expectDir('var/log/firewarden', 0o750, [uid, gid]);
    await expectDir('var/lib/firewarden-agent', 0o700, [0, 0]);
    const config = await stat(path.join(root, 'etc/firewarden/config.yaml'));
    expect([config.mode & 0o777, config.uid, config.gid]).toEqual([0o640, 0, gid]);
    // The written config is valid for this firewarden, update checks off.
    const validated = await runCli([
      'config',
      'validate',
      '--config',
      path.join(root, 'etc/firewarden/config.yaml'),
      '--json',
    ]);
    expect(validated.code).toBe(0);

    expect(await readlink(path.join(root, 'opt/firewarden/current'))).toBe('releases/1.2.3');
    const bin = await run(process.execPath, [path.join(root, 'usr/bin/firewarden')]);
    expect(bin.stdout).toBe('firewarden 1.2.3\n');
    for (const unit of ['firewarden.service', 'firewarden-agent.service']) {
      const installed = await readFile(path.join(root, 'etc/systemd/system', unit), 'utf8');
      expect(installed).toBe(
        await readFile(new URL(`../../packaging/systemd/${unit}`, import.meta.url), 'utf8'),
      );
    }
    expect(await firewallRules()).toBe(rulesBefore);
  });

  test('a second run changes nothing and keeps an edited config; --dry-run changes nothing', async () => {
    await install();
    const configFile = path.join(root, 'etc/firewarden/config.yaml');
    await writeFile(configFile, 'server:\n  port: 8443\n');
    const before = await snapshot();
    await install();
    expect(await snapshot()).toEqual(before);
    expect(await readFile(configFile, 'utf8')).toBe('server:\n  port: 8443\n');

    const fresh = await mkdtemp(path.join(scratch, 'dry-'));
    await mkdir(path.join(fresh, 'etc'));
    await copyFile('/etc/passwd', path.join(fresh, 'etc/passwd'));
    await copyFile('/etc/group', path.join(fresh, 'etc/group'));
    const dry = await run('sh', [installScript, '--prefix', fresh, '--release', release, '--dry-run']);
    expect(dry.stdout).toContain('would run: groupadd --system --prefix');
    expect(dry.stdout).toContain(
      `would run: cp -R --no-preserve=ownership ${release}/. ${fresh}/opt/firewarden/releases/.1.2.3.installing`,
    );
    root = fresh;
    expect((await snapshot()).map((line) => line.split(' ')[0])).toEqual([
      '/etc',
      '/etc/group',
      '/etc/passwd',
    ]);
  });

  test('installs the release root-owned and writable by root only, whoever owns the source', async () => {
    // A release built by an ordinary account, with a group-writable file and a world-writable folder.
    await mkdir(path.join(release, 'node_modules', 'dep'), { recursive: true });
    await writeFile(path.join(release, 'node_modules', 'dep', 'index.js'), 'export {};\n');
    await chmod(path.join(release, 'node_modules', 'dep', 'index.js'), 0o664);
    await chmod(path.join(release, 'node_modules'), 0o777);
    await run('chown', ['-R', '4242:4242', release]);
    await install();

    const installed = (await snapshot()).filter((line) => line.startsWith('/opt/firewarden/releases/'));
    expect(installed.length).toBeGreaterThan(5);
    for (const line of installed) {
      const [at, mode, owner] = line.split(' ');
      expect([at, owner], line).toEqual([at, '0:0']);
      expect(Number.parseInt(mode!, 8) & 0o022, line).toBe(0);
    }
    const binTarget = await stat(await realpath(path.join(root, 'usr/bin/firewarden')));
    expect([binTarget.uid, binTarget.mode & 0o777]).toEqual([0, 0o755]);
    const bin = await run(process.execPath, [path.join(root, 'usr/bin/firewarden')]);
    expect(bin.stdout).toBe('firewarden 1.2.3\n');
  });

  test('doctor fails a release tree a user owns or may write, and a second install repairs it', async () => {
    await install();
    const doctor = async () => {
      const result = await runCli([
        'doctor',
        '--prefix',
        root,
        '--config',
        path.join(root, 'etc/firewarden/config.yaml'),
        '--json',
      ]);
      const check = JSON.parse(result.stdout).checks.find((c: { name: string }) => c.name === 'release_tree');
      return { code: result.code, check };
    };
    expect((await doctor()).check).toMatchObject({ status: 'ok' });

    const cli = path.join(root, 'opt/firewarden/releases/1.2.3/dist/cli.js');
    await chown(cli, 4242, 4242);
    const owned = await doctor();
    expect(owned.code).toBe(1);
    expect(owned.check).toMatchObject({
      status: 'fail',
      details: { count: 1, paths: [{ path: cli, uid: 4242, mode: '0755' }] },
    });
    expect(owned.check.message).toContain(`${cli} (uid 4242, mode 0755)`);

    await chown(cli, 0, 0);
    const dist = path.join(root, 'opt/firewarden/releases/1.2.3/dist');
    await chmod(dist, 0o775);
    expect((await doctor()).check).toMatchObject({
      status: 'fail',
      details: { paths: [{ path: dist, uid: 0, mode: '0775' }] },
    });

    // A release left by an earlier installer (cp -a of a user's tree) is repaired by the next run.
    await chown(cli, 4242, 4242);
    await install();
    expect((await doctor()).check).toMatchObject({ status: 'ok' });
  });

  test('refuses a folder that is not a release and an unknown option', async () => {
    await expect(run('sh', [installScript, '--prefix', root, '--release', root])).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('is not a firewarden release (no dist/cli.js)'),
    });
    await expect(install('--colour')).rejects.toMatchObject({ code: 2 });
  });
});

describe.skipIf(!isRoot)('firewarden uninstall', () => {
  const exists = (at: string) =>
    lstat(path.join(root, at)).then(
      () => true,
      () => false,
    );

  test('--keep-config --yes keeps the config and the account, removes the rest, not the firewall rules', async () => {
    await install();
    const rulesBefore = await firewallRules();
    const result = await runCli(['uninstall', '--prefix', root, '--keep-config', '--yes']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('firewall rules: untouched');
    expect(await exists('etc/firewarden/config.yaml')).toBe(true);
    for (const gone of [
      'var/lib/firewarden',
      'var/lib/firewarden-agent',
      'var/log/firewarden',
      'opt/firewarden',
      'usr/bin/firewarden',
      'etc/systemd/system/firewarden.service',
      'etc/systemd/system/firewarden-agent.service',
    ]) {
      expect(await exists(gone), gone).toBe(false);
    }
    expect(await accountOf('passwd')).toBeDefined();
    expect(await firewallRules()).toBe(rulesBefore);
  });

  test('--purge --yes removes everything, the account too', async () => {
    await install();
    const result = await runCli(['uninstall', '--prefix', root, '--purge', '--yes', '--json']);
    expect(JSON.parse(result.stdout)).toMatchObject({ ok: true, firewall_rules: 'untouched' });
    for (const gone of ['etc/firewarden', 'var/lib/firewarden', 'var/log/firewarden', 'opt/firewarden']) {
      expect(await exists(gone), gone).toBe(false);
    }
    expect(await accountOf('passwd')).toBeUndefined();
    expect(await accountOf('group')).toBeUndefined();
  });

  test('on a terminal it asks what to keep, then for a confirmation', async () => {
    await install();
    // keep config? no; keep database? yes; keep logs? no; remove now? yes
    const shown = await onTerminal(['uninstall', '--prefix', root], 'n\ny\nn\ny\n');
    expect(shown).toContain('Keep the configuration (/etc/firewarden)? [Y/n]');
    expect(shown).toContain('Remove firewarden now? Firewall rules stay as they are. [y/N]');
    expect(await exists('etc/firewarden')).toBe(false);
    expect(await exists('var/lib/firewarden')).toBe(true);
    expect(await exists('var/lib/firewarden-agent')).toBe(true);
    expect(await exists('var/log/firewarden')).toBe(false);
  });

  test('without a terminal and without --yes nothing is removed; --purge with --keep-* is refused', async () => {
    await install();
    const before = await snapshot();
    const asked = await runCli(['uninstall', '--prefix', root]);
    expect(asked.code).toBe(2);
    expect(asked.stderr).toContain('uninstall asks what to keep');
    const both = await runCli(['uninstall', '--prefix', root, '--purge', '--keep-logs', '--yes']);
    expect(both.code).toBe(2);
    const dry = await runCli(['uninstall', '--prefix', root, '--purge', '--dry-run']);
    expect(dry.stdout).toContain('would:');
    expect(await snapshot()).toEqual(before);
  });
});
