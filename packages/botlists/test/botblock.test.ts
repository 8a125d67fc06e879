import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Botlists, BotlistsError } from '../src/index.js';
import { createFakeBotBlock } from './fakes/fake-botblock.js';

const BOT = '123456789012345678';
let now = 5_000_000;
const fake = createFakeBotBlock(() => now);
const original = fake.responder;
let url = '';

beforeAll(async () => {
  url = `${await fake.start()}/api/count`;
});
afterAll(() => fake.stop());
beforeEach(() => {
  fake.requests.length = 0;
  now += 10 * 60_000;
});

const bot = (tokens: Record<string, string>, botId = BOT) =>
  new Botlists({
    botId,
    tokens,
    env: {},
    botblockUrl: url,
    now: () => now,
    fetchOptions: { retryDelayMs: 5 },
  });

describe('postViaBotBlock', () => {
  it('sends one request with the counts and one key per list token, and maps {success, failure} into the report', async () => {
    const report = await bot({
      'top.gg': 'good-1',
      'yabl.xyz': 'bad-2',
      'disforge.com': 'slow-3',
    }).postViaBotBlock({
      serverCount: 40,
      shardCount: 2,
      shards: [15, 25],
    });
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]!.body).toBe(
      `{"bot_id":"${BOT}","server_count":40,"shard_count":2,"shards":[15,25],"top.gg":"good-1","disforge.com":"slow-3","yabl.xyz":"bad-2"}`,
    );
    expect(report.posted).toEqual([{ listId: 'top.gg', outcome: 'posted', status: 200 }]);
    expect(report.failed).toEqual([
      { listId: 'disforge.com', outcome: 'failed', status: null, reason: 'Timeout after 10s' },
      { listId: 'yabl.xyz', outcome: 'failed', status: 401, reason: '{"error":"Unauthorized"}' },
    ]);
    expect(report.skipped.every((r) => r.reason === 'no token')).toBe(true);
  });

  it('omits an empty shards array (BotBlock forwards [] and zeroes top.gg)', async () => {
    await bot({ 'top.gg': 'good' }).postViaBotBlock({ serverCount: 40, shards: [] });
    expect(JSON.parse(fake.requests[0]!.body)).toEqual({ bot_id: BOT, server_count: 40, 'top.gg': 'good' });
  });

  it('guards the 120 s window client-side: the second call throws without a request, and nothing is retried', async () => {
    const client = bot({ 'top.gg': 'good' });
    await client.postViaBotBlock({ serverCount: 1 });
    now += 30_000;
    const error = await client.postViaBotBlock({ serverCount: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BotlistsError);
    expect(error).toMatchObject({ listId: 'botblock', status: 429, retryAfter: 90 });
    expect(fake.requests).toHaveLength(1);
    now += 91_000;
    await client.postViaBotBlock({ serverCount: 1 });
    expect(fake.requests).toHaveLength(2);
  });

  it("surfaces BotBlock's own 429 (another process of the same bot posted) once, with its retry_after", async () => {
    await bot({ 'top.gg': 'good' }).postViaBotBlock({ serverCount: 1 });
    const error = await bot({ 'top.gg': 'good' })
      .postViaBotBlock({ serverCount: 1 })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 429, retryAfter: 120 });
    expect(fake.requests).toHaveLength(2);
  });

  it("reports BotBlock's 400 validation error with its message", async () => {
    const error = await bot({ 'top.gg': 'good' }, 'not-a-snowflake')
      .postViaBotBlock({ serverCount: 1 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BotlistsError);
    expect((error as BotlistsError).status).toBe(400);
    expect((error as BotlistsError).message).toMatch(/bot_id/);
  });

  it('keeps the window open after a 400 (BotBlock does not charge it) but closes it after a success', async () => {
    const client = bot({ 'top.gg': 'good' });
    fake.responder = () => ({ status: 400, body: '{"error":true,"message":"invalid: server_count"}' });
    await expect(client.postViaBotBlock({ serverCount: 1 })).rejects.toMatchObject({ status: 400 });
    fake.responder = original;
    await client.postViaBotBlock({ serverCount: 1 });
    await expect(client.postViaBotBlock({ serverCount: 1 })).rejects.toMatchObject({ status: 429 });
    expect(fake.requests).toHaveLength(2);
  });

  it('emits statsPosted with the mapped report', async () => {
    const client = bot({ 'top.gg': 'good' });
    const seen: unknown[] = [];
    client.on('statsPosted', (r) => seen.push(r));
    const report = await client.postViaBotBlock({ serverCount: 2 });
    expect(seen).toEqual([report]);
  });
});
