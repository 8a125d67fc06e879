import { afterEach, describe, expect, it, vi } from 'vitest';
import { Botlists, nextAutoPostDelay } from '../src/index.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('nextAutoPostDelay', () => {
  it('defaults to 30 minutes with ±5 % jitter and never goes below 60 s', () => {
    expect(nextAutoPostDelay(undefined, () => 0.5)).toBe(1_800_000);
    expect(nextAutoPostDelay(undefined, () => 0)).toBe(1_710_000);
    expect(nextAutoPostDelay(undefined, () => 0.999999)).toBe(1_890_000);
    expect(nextAutoPostDelay(1000, () => 0.5)).toBe(60_000);
    expect(nextAutoPostDelay(1000, () => 0)).toBe(57_000);
    expect(nextAutoPostDelay(Number.NaN, () => 0.5)).toBe(1_800_000);
  });
});

describe('startAutoPost / stopAutoPost', () => {
  it('posts at once, then on every interval, until stopped; failures become error events', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const calls: string[] = [];
    // The list itself is an internet service: an injected fetch stands in for it.
    const fetch = async (url: string, init?: RequestInit) => {
      calls.push(`${init?.method} ${url} ${String(init?.body)}`);
      return new Response(calls.length === 2 ? 'boom' : '{}', { status: calls.length === 2 ? 400 : 200 });
    };
    let count = 10;
    const bot = new Botlists({
      botId: '1',
      env: {},
      tokens: { 'top.gg': 't' },
      postSpacingMs: 0,
      fetchOptions: { fetch },
      statsProvider: () => ({ serverCount: count++ }),
    });
    const reports: unknown[] = [];
    const errors: unknown[] = [];
    bot.on('statsPosted', (r) => reports.push(r));
    bot.on('error', (e) => errors.push(e));
    bot.startAutoPost(120_000);
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toEqual(['PATCH https://top.gg/api/v1/projects/@me/metrics {"server_count":10}']);
    await vi.advanceTimersByTimeAsync(126_001);
    expect(calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(126_001);
    expect(calls).toHaveLength(3);
    expect(reports).toHaveLength(3);
    expect((reports[1] as { failed: unknown[] }).failed).toHaveLength(1);
    bot.stopAutoPost();
    expect(bot.isAutoPosting).toBe(false);
    await vi.advanceTimersByTimeAsync(3_600_000);
    expect(calls).toHaveLength(3);
    expect(errors).toEqual([]);
  });

  it('posts from the process running shard 0 only, so sharded bots never post the same total N times', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const calls: string[] = [];
    const fetch = async (url: string) => {
      calls.push(url);
      return new Response('{}');
    };
    const shardProcess = (ids: number[]) =>
      new Botlists({
        botId: '1',
        env: {},
        tokens: { 'top.gg': 't' },
        fetchOptions: { fetch },
        client: {
          guilds: { cache: { size: 3 } },
          shard: { count: 2, ids, fetchClientValues: async () => [3, 4] },
        },
      });
    const second = shardProcess([1]);
    second.startAutoPost();
    await vi.advanceTimersByTimeAsync(0);
    expect(second.isAutoPosting).toBe(false);
    expect(calls).toEqual([]);
    const first = shardProcess([0]);
    first.startAutoPost();
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toEqual(['https://top.gg/api/v1/projects/@me/metrics']);
    first.stopAutoPost();
  });

  it('keeps the schedule alive when stats cannot be read (client not ready)', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const bot = new Botlists({
      botId: '1',
      env: {},
      tokens: { 'top.gg': 't' },
      client: { guilds: { cache: { size: 0 } } },
    });
    const errors: Error[] = [];
    bot.on('error', (e: Error) => errors.push(e));
    bot.startAutoPost(60_000);
    await vi.advanceTimersByTimeAsync(0);
    await vi.advanceTimersByTimeAsync(63_001);
    expect(errors.map((e) => e.message)).toEqual([
      expect.stringMatching(/serverCount must be an integer >= 1/),
      expect.stringMatching(/serverCount/),
    ]);
    expect(bot.isAutoPosting).toBe(true);
    bot.stopAutoPost();
  });
});
