/**
 * @module The visitor counter behind GitHub's image proxy: through the real server,
 * 1,000 new counters fetched by the proxy all count, a direct client flooding new keys is
 * bounded, a client pretending to be the proxy stops at the global budget, and the store never
 * passes its budget. Then each store (memory, SQLite, PostgreSQL, Redis, D1 in workerd) keeps
 * its budget in counters and bytes, also under concurrent creations, and the retention rule
 * (count <= N, no visit for D days) gives budget back.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Miniflare } from 'miniflare';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createD1VisitorStore,
  createMemoryVisitorStore,
  type D1Binding,
  openVisitorStore,
  VisitorBudgetError,
  type VisitorStore,
  type VisitorStoreLimits,
} from '../../src/index.js';
import { type RunningBin, startBin } from '../support/server.js';
import { available, postgresUp, postgresUrl, redisUp, redisUrl } from '../support/services.js';
import { compatibilityDate } from '../support/workerd.js';

const dir = mkdtempSync(join(tmpdir(), 'cards-visitor-budget-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const camo = 'github-camo (876de43e)';
const DAY_MS = 24 * 3_600_000;

async function visit(server: RunningBin, key: string, userAgent?: string): Promise<Response> {
  const headers: Record<string, string> = userAgent === undefined ? {} : { 'user-agent': userAgent };
  return fetch(`${server.url}/visitors?username=${encodeURIComponent(key)}`, { headers });
}

function rowsIn(file: string, pattern: string): number {
  const db = new Database(file, { readonly: true });
  try {
    return (
      db.prepare('SELECT count(*) AS n FROM visitor_counts WHERE key LIKE ?').get(pattern) as { n: number }
    ).n;
  } finally {
    db.close();
  }
}

describe('the visitor counter behind GitHub image proxy, through the bin', () => {
  it('counts 1,000 new READMEs fetched by the proxy, bounds a direct flood, and stops everyone at the budget', async () => {
    const file = join(dir, 'bin.db');
    const server = await startBin({ CARDS_STORE: file, CARDS_VISITOR_MAX_COUNTERS: '1030' });
    try {
      // 1,000 new counters from one address, all with the proxy's User-Agent, 20 at a time.
      const statuses: number[] = [];
      for (let start = 0; start < 1_000; start += 20) {
        const batch = await Promise.all(
          Array.from({ length: 20 }, async (_, offset) => {
            const response = await visit(server, `readme-${start + offset}`, camo);
            const body = await response.text();
            if (response.status === 200) expect(body).toContain('visitors: 1<');
            return response.status;
          }),
        );
        statuses.push(...batch);
      }
      expect(statuses).toEqual(Array(1_000).fill(200));
      expect(rowsIn(file, 'readme-%')).toBe(1_000);

      // The same address without the proxy's User-Agent: 20 new counters, then 429.
      const direct: number[] = [];
      for (let index = 0; index < 25; index++) {
        const response = await visit(server, `direct-${index}`, 'curl/8.5.0');
        await response.arrayBuffer();
        direct.push(response.status);
      }
      expect(direct).toEqual([...Array(20).fill(200), ...Array(5).fill(429)]);

      // Pretending to be the proxy lifts the per-client limit, but not the global budget:
      // 10 more fit (1,030 in all), then 503 for every new counter, whoever asks.
      const pretender: number[] = [];
      for (let index = 0; index < 15; index++) {
        const response = await visit(server, `pretend-${index}`, camo);
        await response.arrayBuffer();
        pretender.push(response.status);
      }
      expect(pretender).toEqual([...Array(10).fill(200), ...Array(5).fill(503)]);
      const full = await visit(server, 'one-more-readme', camo);
      expect(full.status).toBe(503);
      expect(full.headers.get('retry-after')).toBe('3600');
      expect(await full.text()).toContain('existing counters still count');
      expect(rowsIn(file, '%')).toBe(1_030);

      // Existing counters keep counting, for the proxy and for anyone.
      const again = await visit(server, 'readme-7', camo);
      expect(again.status).toBe(200);
      expect(await again.text()).toContain('visitors: 2<');
    } finally {
      await server.stop();
    }
  });

  it('refuses an invalid budget variable at start with a message naming it', async () => {
    await expect(
      startBin({ CARDS_STORE: join(dir, 'bad.db'), CARDS_VISITOR_MAX_BYTES: 'lots' }),
    ).rejects.toThrow(/CARDS_VISITOR_MAX_BYTES/);
  });
});

type Open = (limits: VisitorStoreLimits & { now: () => number }) => Promise<VisitorStore>;

const miniflares: Miniflare[] = [];
afterAll(() => Promise.all(miniflares.map((worker) => worker.dispose())));

const stores: Array<[string, boolean, Open]> = [
  ['memory', true, async (limits) => createMemoryVisitorStore(limits)],
  ['SQLite', true, (limits) => openVisitorStore(join(dir, `${randomUUID()}.db`), limits)],
  [
    'PostgreSQL',
    available('PostgreSQL', postgresUp),
    (limits) => openVisitorStore(postgresUrl, { ...limits, table: `budget_${randomUUID().slice(0, 8)}` }),
  ],
  [
    'Redis',
    available('Redis', redisUp),
    (limits) => openVisitorStore(redisUrl, { ...limits, redisPrefix: `test-budget-${randomUUID()}:` }),
  ],
  [
    'D1 (workerd)',
    true,
    async (limits) => {
      const worker = new Miniflare({
        modules: [
          {
            type: 'ESModule',
            path: 'worker.mjs',
            contents: 'export default { fetch: () => new Response("") }',
          },
        ],
        compatibilityDate,
        d1Databases: ['DB'],
      });
      miniflares.push(worker);
      const database = (await worker.getD1Database('DB')) as unknown as D1Binding;
      return createD1VisitorStore(database, undefined, limits.now, limits);
    },
  ],
];

describe.each(stores)('the %s store keeps its budget', (name, up, open) => {
  it.runIf(up)(
    'refuses new counters past maxCounters, keeps counting the others, also when racing',
    async () => {
      const clock = { now: Date.UTC(2026, 0, 1) };
      const store = await open({ budget: { maxCounters: 30 }, now: () => clock.now });
      try {
        const results = await Promise.allSettled(
          Array.from({ length: 60 }, (_, index) => store.increment(`key-${index}`)),
        );
        const counted = results.filter((result) => result.status === 'fulfilled');
        expect(counted).toHaveLength(30);
        for (const result of results)
          if (result.status === 'rejected') expect(result.reason).toBeInstanceOf(VisitorBudgetError);
        const created: string[] = [];
        for (let index = 0; index < 60; index++)
          if ((await store.peek(`key-${index}`)) === 1) created.push(`key-${index}`);
        expect(created).toHaveLength(30);
        expect(await store.increment(created[0]!)).toBe(2);
        await expect(store.increment('one-more')).rejects.toBeInstanceOf(VisitorBudgetError);
      } finally {
        await store.close();
      }
    },
  );

  it.runIf(up)('refuses new counters past maxBytes (UTF-8 key + 64 bytes each)', async () => {
    const store = await open({ budget: { maxBytes: 3 * (64 + 100) }, now: Date.now });
    try {
      for (const letter of 'abc') expect(await store.increment(letter.repeat(100))).toBe(1);
      await expect(store.increment('d')).rejects.toBeInstanceOf(VisitorBudgetError);
      expect(await store.increment('a'.repeat(100))).toBe(2);
    } finally {
      await store.close();
    }
  });

  if (name === 'memory') return;
  it.runIf(up)('drops counters with count <= N idle for D days and gives their budget back', async () => {
    const clock = { now: Date.UTC(2026, 0, 1) };
    const store = await open({
      budget: { maxCounters: 3 },
      retention: { maxCount: 2, idleMs: 10 * DAY_MS },
      now: () => clock.now,
    });
    try {
      expect(await store.increment('scanner')).toBe(1);
      await store.increment('twice');
      await store.increment('twice');
      for (let visit = 0; visit < 3; visit++) await store.increment('readme');
      await expect(store.increment('new')).rejects.toBeInstanceOf(VisitorBudgetError);
      clock.now += 11 * DAY_MS;
      // The rule runs at most hourly while serving: this visit runs it, then the new key fits.
      expect(await store.increment('readme')).toBe(4);
      expect(await store.peek('scanner')).toBe(0);
      expect(await store.peek('twice')).toBe(0);
      expect(await store.increment('new')).toBe(1);
      expect(await store.increment('newer')).toBe(1);
      await expect(store.increment('newest')).rejects.toBeInstanceOf(VisitorBudgetError);
    } finally {
      await store.close();
    }
  });

  if (name === 'D1 (workerd)') return;
  it.runIf(up)(
    'removes more idle counters than one purge batch (1,000) and gives all their budget back',
    async () => {
      const clock = { now: Date.UTC(2026, 0, 1) };
      const idle = Array.from({ length: 1_100 }, (_, index) => `idle-${index}`);
      const store = await open({ budget: { maxCounters: 1_101 }, now: () => clock.now });
      try {
        await Promise.all(idle.map((key) => store.increment(key)));
        await store.increment('kept');
        await store.increment('kept');
        await expect(store.increment('new')).rejects.toBeInstanceOf(VisitorBudgetError);
        clock.now += 31 * DAY_MS;
        expect(await store.increment('kept')).toBe(3);
        expect(new Set(await Promise.all(idle.map((key) => store.peek(key))))).toEqual(new Set([0]));
        const fresh = idle.map((key) => `fresh-${key}`);
        expect(new Set(await Promise.all(fresh.map((key) => store.increment(key))))).toEqual(new Set([1]));
        await expect(store.increment('one-more')).rejects.toBeInstanceOf(VisitorBudgetError);
      } finally {
        await store.close();
      }
    },
  );
});
