/**
 * @module Tests: a snapshot of the former format (`GSSNAP01`, whose records hold pre-1.13 files
 * under the former names) is never restored; one of the current format is.
 */
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { openSnapshot, writeSnapshot } from '../../../src/index/index-snapshot.js';

const owner = { serverDir: '/srv/minecraft', worlds: ['world'] };
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'game-stats-snapshot-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function snapshotWithHead(name: string, headText: string | null): Promise<string> {
  const file = path.join(dir, name);
  const legacyFile = {
    path: '/srv/minecraft/world/stats/a.json',
    mtimeMs: 1,
    size: 2,
    error: null,
    legacy: true,
  };
  await writeSnapshot(file, owner, [], [{ ...legacyFile, stats: null }]);
  if (headText !== null) {
    const handle = await open(file, 'r+');
    await handle.write(Buffer.from(headText), 0, headText.length, 0);
    await handle.close();
  }
  return file;
}

test('a snapshot of the current format is restored', async () => {
  const snapshot = openSnapshot(await snapshotWithHead('current.snapshot', null), owner);
  expect(snapshot).not.toBeNull();
  expect([...snapshot!.records(() => true)].map((record) => record.legacy)).toEqual([true]);
  snapshot!.close();
});

test('a GSSNAP01 snapshot is refused, so its legacy records are read again from the files', async () => {
  const file = await snapshotWithHead('former.snapshot', 'GSSNAP01');
  expect(() => openSnapshot(file, owner)).toThrow('not a snapshot');
});
