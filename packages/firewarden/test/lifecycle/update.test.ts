/**
 * @module Tests: `firewarden update check|apply` run by an installed release (made by
 * packaging/install.sh on a private root) against a local update server, with a key pair made
 * here and pinned the only way the product allows: the release's own
 * `packaging/update-signing-key.pem`. Good update, bad hash, bad signature, a new version that
 * does not start (rolled back), disabled checks.
 */
import { execFile } from 'node:child_process';
import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import {
  copyFile,
  cp,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  readlink,
  rm,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { stringify } from 'yaml';
import { childEnvironment } from '../support/running-bin.js';

const run = promisify(execFile);
const packageDir = fileURLToPath(new URL('../../', import.meta.url));
const installScript = path.join(packageDir, 'packaging/install.sh');
const isRoot = process.getuid?.() === 0;

const releaseKey = generateKeyPairSync('ed25519');
const strangerKey = generateKeyPairSync('ed25519');

let scratch: string;
let root: string;
let configFile: string;
let server: Server;
let baseUrl: string;
/** What the update server answers, by path. */
const served = new Map<string, Buffer>();

/** A release tarball whose bin prints `reported` for --version (or fails when null). */
async function artefact(version: string, reported: string | null): Promise<Buffer> {
  const dir = await mkdtemp(path.join(scratch, 'artefact-'));
  await mkdir(path.join(dir, 'dist'));
  await writeFile(path.join(dir, 'package.json'), JSON.stringify({ name: 'firewarden', version }));
  await writeFile(
    path.join(dir, 'dist/cli.js'),
    reported === null ? 'process.exit(3);\n' : `console.log(${JSON.stringify(reported)});\n`,
  );
  const tarball = `${dir}.tar.gz`;
  await run('tar', ['-czf', tarball, '-C', dir, '.']);
  return readFile(tarball);
}

function publish(
  version: string,
  tarball: Buffer,
  options: { key?: typeof releaseKey; sha256?: string } = {},
) {
  const sha256 = options.sha256 ?? createHash('sha256').update(tarball).digest('hex');
  const statement = Buffer.from(`firewarden-update-v1\n${version}\n${sha256}\n`);
  const signature = sign(null, statement, (options.key ?? releaseKey).privateKey).toString('base64');
  served.set(`/firewarden-${version}.tar.gz`, tarball);
  served.set(
    '/manifest.json',
    Buffer.from(JSON.stringify({ version, artefact_url: `firewarden-${version}.tar.gz`, sha256, signature })),
  );
}

async function writeConfig(update: Record<string, unknown>) {
  await writeFile(
    configFile,
    stringify({
      database: { driver: 'sqlite', sqlite_path: path.join(root, 'var/lib/firewarden/firewarden.db') },
      logging: { file_path: path.join(root, 'var/log/firewarden/firewarden.log') },
      agent: { socket_path: path.join(root, 'run/agent.sock') },
      update,
    }),
  );
}

/** Runs the installed firewarden (the release `current` points at). */
async function installed(...args: string[]) {
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      [path.join(root, 'opt/firewarden/current/dist/cli.js'), ...args, '--config', configFile],
      { env: childEnvironment() },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

const apply = async () => {
  const result = await installed('update', 'apply', '--prefix', root, '--json');
  return { ...result, body: JSON.parse(result.stdout) };
};
const current = () => readlink(path.join(root, 'opt/firewarden/current'));
const releases = async () => (await readdir(path.join(root, 'opt/firewarden/releases'))).sort();

beforeAll(async () => {
  if (!isRoot) return;
  scratch = await mkdtemp(path.join(tmpdir(), 'firewarden-update-'));
  // The release under test: this package's build, with the test key pinned where releases keep it.
  const release = path.join(scratch, 'release');
  await mkdir(path.join(release, 'packaging'), { recursive: true });
  await cp(path.join(packageDir, 'dist'), path.join(release, 'dist'), { recursive: true });
  await copyFile(path.join(packageDir, 'package.json'), path.join(release, 'package.json'));
  await writeFile(
    path.join(release, 'packaging/update-signing-key.pem'),
    releaseKey.publicKey.export({ type: 'spki', format: 'pem' }),
  );
  await symlink(path.resolve(packageDir, '../../node_modules'), path.join(release, 'node_modules'));
  root = path.join(scratch, 'root');
  await mkdir(path.join(root, 'etc'), { recursive: true });
  for (const file of ['passwd', 'group', 'shadow', 'gshadow'])
    await copyFile(`/etc/${file}`, path.join(root, 'etc', file));
  await run('sh', [installScript, '--prefix', root, '--release', release]);
  configFile = path.join(root, 'etc/firewarden/config.yaml');

  server = createServer((request, response) => {
    const body = served.get(request.url ?? '');
    response.writeHead(body ? 200 : 404).end(body ?? '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  await writeConfig({ enabled: true, url: `${baseUrl}/manifest.json` });
  expect((await installed('db', 'migrate')).code).toBe(0);
});

afterAll(async () => {
  if (!isRoot) return;
  server.close();
  await rm(scratch, { recursive: true, force: true });
});

describe.skipIf(!isRoot)('update check', () => {
  test('answers "disabled" unless update.enabled is true, without asking the server', async () => {
    await writeConfig({ url: `${baseUrl}/manifest.json` });
    served.clear();
    const text = await installed('update', 'check');
    expect(text.stdout).toContain('update checks are disabled');
    const json = await installed('update', 'check', '--json');
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: true, status: 'disabled' });
    await writeConfig({ enabled: true, url: `${baseUrl}/manifest.json` });
  });

  test('reports a newer signed release', async () => {
    publish('0.2.0', await artefact('0.2.0', '0.2.0'));
    const result = await installed('update', 'check', '--json');
    expect(JSON.parse(result.stdout)).toMatchObject({
      status: 'available',
      current: '0.1.0',
      latest: '0.2.0',
    });
  });
});

describe.skipIf(!isRoot)('update apply', () => {
  test('a manifest signed by another key is refused before anything is downloaded or changed', async () => {
    publish('0.2.0', await artefact('0.2.0', '0.2.0'), { key: strangerKey });
    const result = await apply();
    expect(result.code).toBe(1);
    expect(result.body.error.code).toBe('UPDATE_BAD_SIGNATURE');
    expect(await current()).toBe('releases/0.1.0');
    expect(await releases()).toEqual(['0.1.0']);
  });

  test('an artefact whose SHA-256 differs from the signed one is refused', async () => {
    const good = await artefact('0.2.0', '0.2.0');
    publish('0.2.0', good);
    served.set('/firewarden-0.2.0.tar.gz', await artefact('0.2.0', 'evil'));
    const result = await apply();
    expect(result.body.error.code).toBe('UPDATE_BAD_HASH');
    expect(await current()).toBe('releases/0.1.0');
    expect(await releases()).toEqual(['0.1.0']);
  });

  test('a new version that does not start is rolled back; the backup stays', async () => {
    publish('0.2.0', await artefact('0.2.0', null));
    const result = await apply();
    expect(result.code).toBe(1);
    expect(result.body.error.code).toBe('UPDATE_ROLLED_BACK');
    expect(result.body.error.message).toContain('0.1.0 is running again');
    expect(await current()).toBe('releases/0.1.0');
    expect(await releases()).toEqual(['0.1.0']);
    expect((await installed('--version')).stdout.trim()).toBe('0.1.0');
  });

  test('a good update is verified, backed up, switched and started', async () => {
    publish('0.2.0', await artefact('0.2.0', '0.2.0'));
    const result = await apply();
    expect(result.code).toBe(0);
    expect(result.body).toMatchObject({
      ok: true,
      status: 'updated',
      from: '0.1.0',
      to: '0.2.0',
      restorePoint: { skipped: expect.stringContaining('the agent does not answer') },
    });
    expect(await current()).toBe('releases/0.2.0');
    expect(await releases()).toEqual(['0.1.0', '0.2.0']);
    const backup = await readdir(result.body.backup);
    expect(backup.sort()).toEqual(['config.yaml', 'firewarden.db']);
    expect((await installed('--version')).stdout.trim()).toBe('0.2.0');
  });
});
