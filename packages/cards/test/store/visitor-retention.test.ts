/**
 * @module The retention rule of the visitor stores: by default
 * a counter visited once and never again is removed after 30 days (on open and hourly, SQLite
 * and Redis alike); counters visited twice or more stay.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { openVisitorStore } from '../../src/index.js';
import { available, redisUp, redisUrl } from '../support/services.js';

const dir = mkdtempSync(join(tmpdir(), 'cards-retention-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const DAY_MS = 24 * 3_600_000;

describe('visitor retention', () => {
  it('SQLite drops single-visit counters idle for 30 days and keeps the others', async () => {
    const file = join(dir, 'cards.db');
    const clock = { now: Date.UTC(2026, 0, 1) };
    const store = await openVisitorStore(file, { now: () => clock.now });
    await store.increment('scanner-once');
    await store.increment('readme');
    await store.increment('readme');
    clock.now += 29 * DAY_MS;
    await store.increment('recent-once');
    await store.close();

    clock.now += 2 * DAY_MS;
    const reopened = await openVisitorStore(file, { now: () => clock.now });
    expect(await reopened.peek('scanner-once')).toBe(0);
    expect(await reopened.peek('readme')).toBe(2);
    expect(await reopened.peek('recent-once')).toBe(1);
    // While running, the rule applies again an hour later at most.
    clock.now += 30 * DAY_MS;
    await reopened.increment('readme');
    expect(await reopened.peek('recent-once')).toBe(0);
    await reopened.close();
  });

  it.runIf(available('Redis', redisUp))(
    'Redis drops single-visit counters idle for 30 days and keeps the others',
    async () => {
      const probe = new Redis(redisUrl, { maxRetriesPerRequest: 0 });
      const prefix = `test-retention-${randomUUID()}:`;
      const clock = { now: Date.UTC(2026, 0, 1) };
      const store = await openVisitorStore(redisUrl, { redisPrefix: prefix, now: () => clock.now });
      try {
        await store.increment('once');
        await store.increment('twice');
        await store.increment('twice');
        clock.now += 29 * DAY_MS;
        await store.increment('recent-once');
        clock.now += 2 * DAY_MS;
        await store.increment('twice');
        expect(await probe.exists(`${prefix}once`)).toBe(0);
        expect(await store.peek('twice')).toBe(3);
        expect(await store.peek('recent-once')).toBe(1);
        // No TTL: the rule, not Redis expiry, removes counters, so the budget is given back.
        expect(await probe.pttl(`${prefix}twice`)).toBe(-1);
        expect(await probe.hgetall(`${prefix.slice(0, -1)}#usage`)).toEqual({
          counters: '2',
          bytes: String(5 + 64 + 11 + 64),
        });
      } finally {
        await probe.del(
          `${prefix}twice`,
          `${prefix}recent-once`,
          `${prefix.slice(0, -1)}#usage`,
          `${prefix.slice(0, -1)}#idle`,
        );
        await probe.quit();
        await store.close();
      }
    },
  );

  it.runIf(available('Redis', redisUp))(
    'Redis adopts the single-visit TTLs of earlier versions, so the rule removes them and gives their budget back',
    async () => {
      const probe = new Redis(redisUrl, { maxRetriesPerRequest: 0 });
      const prefix = `test-legacy-${randomUUID()}:`;
      // As an earlier version left them: a counter visited once 20 days ago (TTL 10 days left)
      // and a counter visited five times (no TTL).
      await probe.set(`${prefix}legacy-once`, 1, 'PX', 10 * DAY_MS);
      await probe.set(`${prefix}legacy-readme`, 5);
      const clock = { now: Date.now() };
      const store = await openVisitorStore(redisUrl, { redisPrefix: prefix, now: () => clock.now });
      try {
        expect(await probe.hgetall(`${prefix.slice(0, -1)}#usage`)).toEqual({
          counters: '2',
          bytes: String(11 + 64 + 13 + 64),
        });
        expect(await probe.pttl(`${prefix}legacy-once`)).toBe(-1);
        clock.now += 11 * DAY_MS;
        expect(await store.increment('legacy-readme')).toBe(6);
        expect(await store.peek('legacy-once')).toBe(0);
        expect(await probe.hgetall(`${prefix.slice(0, -1)}#usage`)).toEqual({
          counters: '1',
          bytes: String(13 + 64),
        });
      } finally {
        await probe.del(
          `${prefix}legacy-once`,
          `${prefix}legacy-readme`,
          `${prefix.slice(0, -1)}#usage`,
          `${prefix.slice(0, -1)}#idle`,
        );
        await probe.quit();
        await store.close();
      }
    },
  );
});
