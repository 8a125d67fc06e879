/**
 * @module The retention rule on Cloudflare D1, against a real D1 database
 * in workerd (miniflare): single-visit counters idle for 30 days go, others stay, and a table
 * created before the rule gets its column.
 */
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createD1VisitorStore, type D1Binding } from '../../src/index.js';
import { compatibilityDate } from '../support/workerd.js';

let worker: Miniflare;
let database: D1Binding;
beforeAll(async () => {
  worker = new Miniflare({
    modules: [
      { type: 'ESModule', path: 'worker.mjs', contents: 'export default { fetch: () => new Response("") }' },
    ],
    compatibilityDate,
    d1Databases: ['DB'],
  });
  database = (await worker.getD1Database('DB')) as unknown as D1Binding;
});
afterAll(() => worker.dispose());

const DAY_MS = 24 * 3_600_000;

it('drops single-visit counters idle for 30 days, keeps the others, and upgrades an old table', async () => {
  // The table as the first D1 store created it, with a counter in it.
  await database.exec('CREATE TABLE old_counts (key TEXT PRIMARY KEY, count INTEGER NOT NULL DEFAULT 0)');
  await database.exec("INSERT INTO old_counts (key, count) VALUES ('legacy', 1)");
  const clock = { now: Date.UTC(2026, 0, 1) };
  const store = createD1VisitorStore(database, 'old_counts', () => clock.now);
  await store.increment('scanner-once');
  await store.increment('readme');
  await store.increment('readme');
  clock.now += 31 * DAY_MS;
  expect(await store.increment('fresh')).toBe(1);
  expect(await store.peek('scanner-once')).toBe(0);
  expect(await store.peek('readme')).toBe(2);
  // Rows counted before the rule have no last visit recorded: kept.
  expect(await store.peek('legacy')).toBe(1);
});
