/**
 * @module Tests: restore points keep a blocklist's entries once per content, give them back
 * whole, refuse a point whose entries were altered, and drop a content once no kept point names it.
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { BackendState } from '../../src/agent/firewall-backend.js';
import { SnapshotStore } from '../../src/agent/snapshot-store.js';
import { defaultRetention as retention } from '../../src/agent-protocol/protocol.js';

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(path.join(tmpdir(), 'fw-points-'));
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

const state = (entries: string[]): BackendState => ({
  iptables: { ipv4: '*filter\nCOMMIT\n', ipv6: '*filter\nCOMMIT\n' },
  blocklists: [
    {
      name: 'feed',
      family: 'both',
      comment: 'a feed',
      entries: {
        ipv4: entries.filter((e) => !e.includes(':')),
        ipv6: entries.filter((e) => e.includes(':')),
      },
    },
  ],
});
const contents = () => readdirSync(path.join(folder, 'snapshots', 'lists')).sort();

test('entries are stored once per content and come back whole', async () => {
  const store = new SnapshotStore(folder);
  const first = await store.create(
    'manual',
    state(['192.0.2.0/24', '2001:db8::1']),
    null,
    new Set(),
    retention,
  );
  await store.create('manual', state(['192.0.2.0/24', '2001:db8::1']), null, new Set(), retention);
  expect(contents()).toHaveLength(1);
  expect((await store.get(first.id)).blocklists).toEqual(state(['192.0.2.0/24', '2001:db8::1']).blocklists);
  expect((await store.list())[0]).not.toHaveProperty('blocklists');

  writeFileSync(path.join(folder, 'snapshots', 'lists', contents()[0]!), '10.0.0.1');
  await expect(store.get(first.id)).rejects.toMatchObject({ code: 'FW_SNAPSHOT_NOT_FOUND' });
});

test('a content goes once the last point naming it is pruned', async () => {
  const store = new SnapshotStore(folder);
  await store.create('automatic', state(['198.51.100.7']), null, new Set(), retention);
  for (let i = 0; i < retention.automatic; i += 1) {
    await store.create('automatic', state(['203.0.113.0/24']), null, new Set(), retention);
    // Points are ordered by their creation time: keep them apart.
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  expect(contents()).toHaveLength(1);
  const [kept] = await store.list();
  expect((await store.get(kept!.id)).blocklists?.[0]?.entries.ipv4).toEqual(['203.0.113.0/24']);
});
