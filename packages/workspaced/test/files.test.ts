/**
 * @module Tests: rooted file access through the running bin: listing, binary-safe read and write,
 * atomic replacement, limits, deletion, and every way out of the root (`..`, absolute, NUL,
 * encoded, symlinks to files and folders outside, sibling-prefix folders, dangling links).
 */
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Client, type RunningDaemon, removeDataDir, setupOwner, startDaemon } from './support/daemon.js';
import { removeScratchDirs, scratchDir } from './support/scratch.js';

let daemon: RunningDaemon;
let owner: Client;
let base: string;
let root: string;
let outside: string;
let files: string;

beforeAll(async () => {
  daemon = await startDaemon();
  owner = await setupOwner(daemon);
  base = await scratchDir('files');
  root = path.join(base, 'proj');
  outside = path.join(base, 'outside');
  await mkdir(path.join(root, 'src'), { recursive: true });
  await mkdir(outside);
  // A sibling whose name starts with the root's: a plain prefix test would let it in.
  await mkdir(path.join(base, 'proj-evil'));
  await writeFile(path.join(base, 'proj-evil', 'loot.txt'), 'evil');
  await writeFile(path.join(outside, 'secret.txt'), 'top secret');
  await writeFile(path.join(root, 'hello.txt'), 'hello world\n');
  await writeFile(path.join(root, 'src', 'main.ts'), 'export {};\n');
  await symlink(outside, path.join(root, 'link-dir-out'));
  await symlink(path.join(outside, 'secret.txt'), path.join(root, 'link-file-out'));
  await symlink(path.join(base, 'proj-evil'), path.join(root, 'link-sibling'));
  await symlink(path.join(root, 'hello.txt'), path.join(root, 'link-inside'));
  await symlink(path.join(outside, 'missing.txt'), path.join(root, 'link-dangling'));
  await mkdir(path.join(root, '.git'));
  await writeFile(path.join(root, '.git', 'config'), '[core]\n');
  const project = await owner.post('/projects', { name: 'files', path: root });
  files = `/projects/${project.body.id}/files`;
});

afterAll(async () => {
  expect(await daemon.stop()).toBe(0);
  await removeDataDir(daemon);
  await removeScratchDirs();
});

const read = (relative: string, extra = '') =>
  owner.get(`${files}/read?path=${encodeURIComponent(relative)}${extra}`);
const write = (body: Record<string, unknown>) => owner.post(`${files}/write`, body);

describe('listing and reading', () => {
  test('lists a folder with types, sizes and times, sorted by name; symlinks are not followed', async () => {
    const answer = await owner.get(files);
    expect(answer.status).toBe(200);
    expect(answer.body.truncated).toBe(false);
    const byName = Object.fromEntries(
      answer.body.entries.map((entry: { name: string }) => [entry.name, entry]),
    );
    expect(byName['hello.txt']).toMatchObject({ type: 'file', size: 12 });
    expect(byName.src).toMatchObject({ type: 'directory' });
    expect(byName['link-dir-out']).toMatchObject({ type: 'symlink' });
    const names = answer.body.entries.map((entry: { name: string }) => entry.name);
    expect(names).toEqual([...names].sort());
    expect((await owner.get(`${files}?path=src`)).body.entries.map((e: { name: string }) => e.name)).toEqual([
      'main.ts',
    ]);
  });

  test('reads UTF-8 text as utf8 and binary bytes as base64, byte for byte', async () => {
    const text = await read('hello.txt');
    expect(text.body).toMatchObject({
      path: 'hello.txt',
      size: 12,
      encoding: 'utf8',
      content: 'hello world\n',
    });
    const bytes = randomBytes(4096);
    bytes[0] = 0xff;
    await writeFile(path.join(root, 'blob.bin'), bytes);
    const binary = await read('blob.bin');
    expect(binary.body.encoding).toBe('base64');
    expect(Buffer.from(binary.body.content, 'base64').equals(bytes)).toBe(true);
    expect((await read('hello.txt', '&encoding=base64')).body.content).toBe(
      Buffer.from('hello world\n').toString('base64'),
    );
    expect((await read('blob.bin', '&encoding=utf8')).status).toBe(422);
  });

  test('a symlink inside the root that stays inside is followed', async () => {
    expect((await read('link-inside')).body.content).toBe('hello world\n');
  });

  test('reading a folder or a missing file is a clear 4xx', async () => {
    expect((await read('src')).body.error.code).toBe('IS_A_DIRECTORY');
    const missing = await read('nope.txt');
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('FILE_NOT_FOUND');
  });

  test('a file over the read limit (10 MiB) is refused with 413', async () => {
    await writeFile(path.join(root, 'big.bin'), Buffer.alloc(10 * 1024 * 1024 + 1));
    const answer = await read('big.bin');
    expect(answer.status).toBe(413);
    expect(answer.body.error.code).toBe('FILE_TOO_LARGE');
  });
});

describe('escapes out of the root', () => {
  const invalid = [
    '..',
    '../outside/secret.txt',
    'src/../../outside/secret.txt',
    '/etc/passwd',
    'a\0b',
    'src\\..\\x',
  ];
  test.each(invalid)('%j is refused as INVALID_PATH on read, list, write and delete', async (bad) => {
    for (const answer of [
      await read(bad),
      await owner.get(`${files}?path=${encodeURIComponent(bad)}`),
      await write({ path: bad, content: 'pwned' }),
      await owner.delete(`${files}?path=${encodeURIComponent(bad)}`),
    ]) {
      expect(answer.status).toBe(400);
      expect(answer.body.error.code).toBe('INVALID_PATH');
    }
  });

  test('percent-encoded escapes are decoded once, then refused; double encoding names a harmless literal file', async () => {
    const once = await owner.get(`${files}/read?path=%2e%2e%2foutside%2fsecret.txt`);
    expect(once.status).toBe(400);
    const nul = await owner.get(`${files}/read?path=hello.txt%00.png`);
    expect(nul.status).toBe(400);
    const twice = await owner.get(`${files}/read?path=%252e%252e%252foutside%252fsecret.txt`);
    expect(twice.status).toBe(404);
    expect(JSON.stringify(twice.body)).not.toContain('top secret');
  });

  const symlinked = ['link-file-out', 'link-dir-out/secret.txt', 'link-sibling/loot.txt', 'link-dangling'];
  test.each(symlinked)('%s (a symlink leading out) is refused with 403 PATH_OUTSIDE_ROOT', async (bad) => {
    const answer = await read(bad);
    expect(answer.status).toBe(403);
    expect(answer.body.error.code).toBe('PATH_OUTSIDE_ROOT');
    expect(JSON.stringify(answer.body)).not.toMatch(/secret|evil/);
  });

  test('listing through a symlinked folder outside is refused', async () => {
    const answer = await owner.get(`${files}?path=link-dir-out`);
    expect(answer.status).toBe(403);
  });

  test('writing through a symlink to outside changes nothing outside', async () => {
    for (const target of [
      'link-file-out',
      'link-dir-out/new.txt',
      'link-dir-out/deep/new.txt',
      'link-dangling',
    ]) {
      const answer = await write({ path: target, content: 'pwned', create_dirs: true });
      expect(answer.status, target).toBe(403);
    }
    expect(await readFile(path.join(outside, 'secret.txt'), 'utf8')).toBe('top secret');
    expect((await readdir(outside)).sort()).toEqual(['secret.txt']);
  });

  test('deleting a symlink that leads out removes the link, never its target', async () => {
    await symlink(path.join(outside, 'secret.txt'), path.join(root, 'link-to-delete'));
    expect((await owner.delete(`${files}?path=link-to-delete`)).status).toBe(204);
    expect(await readFile(path.join(outside, 'secret.txt'), 'utf8')).toBe('top secret');
    expect((await owner.delete(`${files}?path=link-dir-out/secret.txt`)).status).toBe(403);
    expect(await readFile(path.join(outside, 'secret.txt'), 'utf8')).toBe('top secret');
  });
});

describe('writing', () => {
  test('creates and replaces files; utf8 and base64 content land byte for byte', async () => {
    const created = await write({ path: 'notes.md', content: '# Notes\n' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ path: 'notes.md', size: 8, created: true });
    const replaced = await write({ path: 'notes.md', content: '# Notes v2\n' });
    expect(replaced.status).toBe(200);
    expect(await readFile(path.join(root, 'notes.md'), 'utf8')).toBe('# Notes v2\n');
    const bytes = randomBytes(1000);
    await write({ path: 'raw.bin', content: bytes.toString('base64'), encoding: 'base64' });
    expect((await readFile(path.join(root, 'raw.bin'))).equals(bytes)).toBe(true);
  });

  test('writing through an inside symlink updates its target and keeps the link', async () => {
    await write({ path: 'link-inside', content: 'hello again\n' });
    expect(await readFile(path.join(root, 'hello.txt'), 'utf8')).toBe('hello again\n');
    expect(
      (await owner.get(files)).body.entries.find((e: { name: string }) => e.name === 'link-inside').type,
    ).toBe('symlink');
  });

  test('keeps the file mode, leaves no temp file, and creates parents only when asked', async () => {
    await writeFile(path.join(root, 'private.txt'), 'x');
    await chmod(path.join(root, 'private.txt'), 0o600);
    await write({ path: 'private.txt', content: 'still private' });
    expect((await stat(path.join(root, 'private.txt'))).mode & 0o777).toBe(0o600);
    expect((await readdir(root)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    const refused = await write({ path: 'new/deep/file.txt', content: 'x' });
    expect(refused.status).toBe(404);
    const made = await write({ path: 'new/deep/file.txt', content: 'x', create_dirs: true });
    expect(made.status).toBe(201);
    expect(await readFile(path.join(root, 'new/deep/file.txt'), 'utf8')).toBe('x');
  });

  test('a reader never sees a half-written file while it is replaced', async () => {
    const a = 'a'.repeat(2 * 1024 * 1024);
    const b = 'b'.repeat(2 * 1024 * 1024);
    await write({ path: 'swap.txt', content: a });
    const writes = (async () => {
      for (let round = 0; round < 6; round++) await write({ path: 'swap.txt', content: round % 2 ? a : b });
    })();
    for (let round = 0; round < 12; round++) {
      const content = (await read('swap.txt')).body.content as string;
      expect(content === a || content === b).toBe(true);
    }
    await writes;
  });

  test('the .git folder is read-only through the file routes', async () => {
    const answer = await write({ path: '.git/config', content: '[core]\n\tfsmonitor = touch /tmp/pwned\n' });
    expect(answer.status).toBe(403);
    expect(answer.body.error.code).toBe('PATH_READ_ONLY');
    expect((await owner.delete(`${files}?path=.git/config`)).status).toBe(403);
    await symlink(path.join(root, '.git', 'config'), path.join(root, 'innocent.cfg'));
    const throughLink = await write({ path: 'innocent.cfg', content: '[core]\n\thooksPath = /tmp\n' });
    expect(throughLink.body.error.code).toBe('PATH_READ_ONLY');
    expect(await readFile(path.join(root, '.git', 'config'), 'utf8')).toBe('[core]\n');
    expect((await read('.git/config')).status).toBe(200);
  });

  test('bad content and oversized bodies are clear errors', async () => {
    expect((await write({ path: 'x.bin', content: 'not base64!', encoding: 'base64' })).body.error.code).toBe(
      'INVALID_BASE64',
    );
    const huge = await write({
      path: 'huge.bin',
      content: Buffer.alloc(10 * 1024 * 1024 + 10).toString('base64'),
      encoding: 'base64',
    });
    expect(huge.status).toBe(413);
    expect((await readdir(root)).includes('huge.bin')).toBe(false);
    expect((await write({ path: 'src', content: 'x' })).body.error.code).toBe('IS_A_DIRECTORY');
  });
});

describe('deleting', () => {
  test('deletes files and empty folders; refuses non-empty folders and the root', async () => {
    await writeFile(path.join(root, 'gone.txt'), 'x');
    expect((await owner.delete(`${files}?path=gone.txt`)).status).toBe(204);
    await expect(stat(path.join(root, 'gone.txt'))).rejects.toThrow();
    const notEmpty = await owner.delete(`${files}?path=src`);
    expect(notEmpty.status).toBe(409);
    expect(notEmpty.body.error.code).toBe('DIRECTORY_NOT_EMPTY');
    await mkdir(path.join(root, 'empty'));
    expect((await owner.delete(`${files}?path=empty`)).status).toBe(204);
    expect((await owner.delete(`${files}?path=`)).status).toBe(400);
    expect((await owner.delete(`${files}?path=missing.txt`)).status).toBe(404);
  });
});

describe('arbitrary paths', () => {
  test('never cause a 500 and never reach a file outside the root', async () => {
    const piece = fc.constantFrom(
      '..',
      '.',
      'a',
      'src',
      'link-dir-out',
      'link-file-out',
      'link-inside',
      '%2e',
      '\\',
      '\0',
      '/',
      'secret.txt',
      'é',
    );
    await fc.assert(
      fc.asyncProperty(fc.array(piece, { maxLength: 6 }), fc.boolean(), async (pieces, slashes) => {
        const candidate = pieces.join(slashes ? '/' : '');
        for (const answer of [
          await read(candidate),
          await owner.get(`${files}?path=${encodeURIComponent(candidate)}`),
        ]) {
          expect(answer.status, candidate).toBeLessThan(500);
          expect(JSON.stringify(answer.body)).not.toContain('top secret');
        }
      }),
      { numRuns: 60 },
    );
    expect(await readFile(path.join(outside, 'secret.txt'), 'utf8')).toBe('top secret');
  });
});

describe("the daemon's own data folder", () => {
  test('is unreachable through a project that contains it; task worktrees below it stay reachable', async () => {
    const parent = path.dirname(daemon.dataDir);
    const project = await owner.post('/projects', { name: 'home', path: parent });
    const api = `/projects/${project.body.id}/files`;
    const refused = [
      await owner.get(`${api}/read?path=ws/workspaced.db`),
      await owner.get(`${api}?path=ws`),
      await owner.post(`${api}/write`, { path: 'ws/workspaced.db', content: 'corrupt' }),
      await owner.post(`${api}/write`, { path: 'ws/new.txt', content: 'x' }),
      await owner.delete(`${api}?path=ws/workspaced.db`),
    ];
    for (const answer of refused) {
      expect(answer.status).toBe(403);
      expect(answer.body.error.code).toBe('PATH_RESERVED');
    }
    expect((await stat(path.join(daemon.dataDir, 'workspaced.db'))).size).toBeGreaterThan(0);
    expect((await readdir(daemon.dataDir)).includes('new.txt')).toBe(false);
    await mkdir(path.join(daemon.dataDir, 'worktrees'), { recursive: true });
    expect((await owner.get(`${api}?path=ws/worktrees`)).status).toBe(200);
    const inside = await owner.post('/projects', { name: 'inside', path: daemon.dataDir });
    expect(inside.status).toBe(400);
  });
});
