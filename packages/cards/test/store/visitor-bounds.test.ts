/**
 * @module One client cannot grow the visitor store past a bound: through
 * the real server on a SQLite file, new counters are limited per client and per hour, existing
 * counters always count, and keys are bounded in length.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  boundVisitorStore,
  createMemoryVisitorStore,
  MAX_VISITOR_KEY_BYTES,
  VisitorLimitError,
} from '../../src/index.js';
import { type RunningBin, startBin } from '../support/server.js';

const dir = mkdtempSync(join(tmpdir(), 'cards-visitor-bounds-'));
const file = join(dir, 'cards.db');
let server: RunningBin;

beforeAll(async () => {
  server = await startBin({ CARDS_STORE: file });
});
afterAll(async () => {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

const visit = (key: string) => fetch(`${server.url}/visitors?username=${encodeURIComponent(key)}`);

describe('visitor store bounds', () => {
  it('one client creates at most 20 counters an hour, whatever it tries; existing ones keep counting', async () => {
    const statuses: number[] = [];
    for (let index = 0; index < 60; index++) {
      const response = await visit(`flood-${index}-${'k'.repeat(80)}`);
      statuses.push(response.status);
      await response.arrayBuffer();
    }
    expect(statuses.slice(0, 20)).toEqual(Array(20).fill(200));
    expect(new Set(statuses.slice(20))).toEqual(new Set([429]));
    const refused = await visit('flood-new');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(3_000);
    expect(await refused.text()).toContain('Too many new counters');
    // A counter that exists still counts for the same client.
    const again = await visit(`flood-0-${'k'.repeat(80)}`);
    expect(again.status).toBe(200);
    expect(await again.text()).toContain('visitors: 2');
    const db = new Database(file, { readonly: true });
    try {
      const rows = db.prepare("SELECT count(*) AS n FROM visitor_counts WHERE key LIKE 'flood-%'").get() as {
        n: number;
      };
      expect(rows.n).toBe(20);
    } finally {
      db.close();
    }
  });

  it('refuses keys over 100 characters with a 400 card, and stores nothing for them', async () => {
    const long = await visit('€'.repeat(101));
    expect(long.status).toBe(400);
    const db = new Database(file, { readonly: true });
    try {
      expect(db.prepare("SELECT count(*) AS n FROM visitor_counts WHERE key LIKE '€%'").get()).toEqual({
        n: 0,
      });
    } finally {
      db.close();
    }
  });

  it('the store itself refuses keys over 300 UTF-8 bytes (library use), before touching the store', async () => {
    const inner = createMemoryVisitorStore();
    const store = boundVisitorStore(inner);
    expect(await store.increment('€'.repeat(100), 'client')).toBe(1);
    await expect(store.increment(`${'€'.repeat(100)}x`, 'client')).rejects.toMatchObject({ status: 400 });
    await expect(store.increment('x'.repeat(MAX_VISITOR_KEY_BYTES + 1))).rejects.toBeInstanceOf(
      VisitorLimitError,
    );
    expect(await inner.peek('x'.repeat(MAX_VISITOR_KEY_BYTES + 1))).toBe(0);
  });
});
