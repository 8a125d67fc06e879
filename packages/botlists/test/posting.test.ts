import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { Botlists, BotlistsError, lists } from '../src/index.js';
import { rebasedOverrides } from './fakes/rebase-lists.js';
import { RecordingServer } from './fakes/recording-server.js';

const BOT = '123456789012345678';
const STATS = { serverCount: 1234, shardCount: 2, shards: [600, 634] };

/**
 * The exact request each list documents (see registry-data/lists.json sources), written by hand:
 * [method, path, auth header name or null, auth value, body bytes].
 */
const EXPECTED: Record<string, [string, string, string | null, string, string]> = {
  // top.gg v1 (the v0 route is the `legacyApi: ['top.gg']` fallback, tested below).
  'top.gg': [
    'PATCH',
    '/api/v1/projects/@me/metrics',
    'authorization',
    'Bearer tok-top.gg',
    '{"server_count":1234,"shard_count":2}',
  ],
  'discordbotlist.com': [
    'POST',
    `/api/v1/bots/${BOT}/stats`,
    'authorization',
    'Bot tok-discordbotlist.com',
    '{"guilds":1234}',
  ],
  'discord.bots.gg': [
    'POST',
    `/api/v1/bots/${BOT}/stats`,
    'authorization',
    'tok-discord.bots.gg',
    '{"guildCount":1234,"shardCount":2}',
  ],
  'botlist.me': [
    'POST',
    `/api/v1/bots/${BOT}/stats`,
    'authorization',
    'tok-botlist.me',
    '{"server_count":1234,"shard_count":2}',
  ],
  'discords.com': [
    'POST',
    `/bots/api/bot/${BOT}`,
    'authorization',
    'tok-discords.com',
    '{"server_count":1234}',
  ],
  'voidbots.net': [
    'POST',
    `/bot/stats/${BOT}`,
    'authorization',
    'tok-voidbots.net',
    '{"server_count":1234,"shard_count":2}',
  ],
  'omniplex.gg': [
    'POST',
    '/bots/stats',
    'authorization',
    'tok-omniplex.gg',
    '{"servers":1234,"shards":2,"shard_list":[600,634]}',
  ],
  'disforge.com': ['POST', `/api/botstats/${BOT}`, 'authorization', 'tok-disforge.com', '{"servers":1234}'],
  'discordlist.gg': [
    'PUT',
    `/v0/bots/${BOT}/guilds?count=1234`,
    'authorization',
    'Bearer tok-discordlist.gg',
    '',
  ],
  'radarcord.net': [
    'POST',
    `/api/bot/${BOT}/stats`,
    'authorization',
    'tok-radarcord.net',
    '{"guilds":1234,"shards":2}',
  ],
  'discordextremelist.xyz': [
    'POST',
    `/v2/bot/${BOT}/stats`,
    'authorization',
    'tok-discordextremelist.xyz',
    '{"guildCount":1234,"shardCount":2}',
  ],
  'bots.ondiscord.xyz': [
    'POST',
    `/bot-api/bots/${BOT}/guilds`,
    'authorization',
    'tok-bots.ondiscord.xyz',
    '{"guildCount":1234}',
  ],
  'yabl.xyz': ['POST', `/api/bot/${BOT}/stats`, 'authorization', 'tok-yabl.xyz', '{"guildCount":1234}'],
  'discover.fluxpoint.dev': [
    'POST',
    `/api/bot/${BOT}/stats`,
    'authorization',
    'tok-discover.fluxpoint.dev',
    '{"servers":1234,"shards":2}',
  ],
  'disq.ink': [
    'POST',
    `/v1/bots/${BOT}`,
    'authorization',
    'tok-disq.ink',
    '{"serverCount":1234,"shards":[600,634]}',
  ],
  'dlist.space': [
    'POST',
    `/api/bot/${BOT}/stats`,
    'authorization',
    'Bearer tok-dlist.space',
    '{"servers_count":1234,"shards_count":2}',
  ],
  'justdiscord.org': [
    'POST',
    `/api/v0/bots/${BOT}/stats`,
    'authorization',
    'tok-justdiscord.org',
    '{"server_count":1234,"shard_count":2,"shards":[600,634]}',
  ],
  'cybralist.com': [
    'POST',
    '/post/stats',
    'authorization',
    'tok-cybralist.com',
    '{"server_count":1234,"shard_count":2}',
  ],
  'vcodes.xyz': [
    'POST',
    '/api/bots/stats',
    'authorization',
    'tok-vcodes.xyz',
    '{"serverCount":1234,"shardCount":2}',
  ],
  'discord.rovelstars.com': [
    'POST',
    `/api/bots/${BOT}/servers`,
    'authorization',
    'tok-discord.rovelstars.com',
    '{"count":1234}',
  ],
  'carbonitex.net': [
    'POST',
    '/discord/data/botdata.php',
    null,
    '',
    '{"servercount":1234,"key":"tok-carbonitex.net"}',
  ],
  'discordforge.org': [
    'POST',
    '/api/bots/stats',
    'authorization',
    'tok-discordforge.org',
    '{"server_count":1234,"shard_count":2}',
  ],
  'topbot.gg': [
    'POST',
    `/api/v1/bots/${BOT}/stats`,
    'authorization',
    'tok-topbot.gg',
    '{"serverCount":1234,"shardCount":2}',
  ],
};

const fake = new RecordingServer();
let base = '';
const allTokens = Object.fromEntries(lists.map((l) => [l.id, `tok-${l.id}`]));

function client(extra: ConstructorParameters<typeof Botlists>[0] = {}) {
  return new Botlists({
    botId: BOT,
    tokens: allTokens,
    env: {},
    lists: rebasedOverrides(base),
    postSpacingMs: 0,
    fetchOptions: { retryDelayMs: 5 },
    ...extra,
  });
}

beforeAll(async () => {
  base = await fake.start();
});
afterAll(() => fake.stop());
beforeEach(() => {
  fake.requests.length = 0;
  fake.responder = () => ({ status: 200, body: '{}' });
});

describe('postStats wire format', () => {
  it('covers every list that takes stats posts', () => {
    expect(Object.keys(EXPECTED).sort()).toEqual(
      lists
        .filter((l) => l.supports.post)
        .map((l) => l.id)
        .sort(),
    );
  });

  it('sends each list exactly its documented request', async () => {
    const report = await client().postStats(STATS);
    expect(report.failed).toEqual([]);
    expect(report.posted.map((r) => r.listId).sort()).toEqual(Object.keys(EXPECTED).sort());
    for (const [id, [method, path, authName, authValue, body]] of Object.entries(EXPECTED)) {
      const request = fake.requests.find((r) => r.url.startsWith(`/${id}/`));
      expect(request, id).toBeDefined();
      expect(request!.method, id).toBe(method);
      expect(request!.url, id).toBe(`/${id}${path}`);
      if (authName) expect(request!.headers[authName], id).toBe(authValue);
      else expect(request!.headers.authorization, id).toBeUndefined();
      expect(request!.body, id).toBe(body);
      if (body) expect(request!.headers['content-type'], id).toBe('application/json');
    }
  });

  it('omits an empty shards array and absent shard fields entirely', async () => {
    await client().postStats(
      { serverCount: 50, shards: [] },
      { only: ['top.gg', 'disq.ink', 'omniplex.gg'] },
    );
    const bodies = Object.fromEntries(fake.requests.map((r) => [r.url.split('/')[1], r.body]));
    expect(bodies).toEqual({
      'top.gg': '{"server_count":50}',
      'disq.ink': '{"serverCount":50}',
      'omniplex.gg': '{"servers":50}',
    });
  });

  it('sends shard_id only when a shard posts its own count', async () => {
    await client().postStats(
      { serverCount: 7, shardId: 1, shardCount: 2 },
      { only: ['top.gg', 'discordbotlist.com'] },
    );
    const bodies = fake.requests.map((r) => r.body).sort();
    expect(bodies).toEqual(['{"guilds":7,"shard_id":1}', '{"server_count":7,"shard_count":2,"shard_id":1}']);
  });

  it('refuses counts that would zero or corrupt a listing, before any request', async () => {
    const bot = client();
    for (const bad of [
      { serverCount: 0 },
      { serverCount: -3 },
      { serverCount: 1.5 },
      { serverCount: 10, shards: [1, -1] },
    ]) {
      await expect(bot.postStats(bad)).rejects.toBeInstanceOf(BotlistsError);
    }
    expect(fake.requests).toHaveLength(0);
  });

  it("top.gg v0 stays reachable: legacyApi: ['top.gg'], a shard's own count, or an overridden apiPost", async () => {
    const legacy = client({ tokens: { 'top.gg': 'tok' }, legacyApi: ['top.gg'] });
    await legacy.postStats(STATS);
    await client({ tokens: { 'top.gg': 'tok' } }).postStats({ serverCount: 7, shardCount: 2, shardId: 1 });
    await new Botlists({
      botId: BOT,
      env: {},
      tokens: { 'top.gg': 'tok' },
      lists: [{ id: 'top.gg', apiPost: `${base}/mine/:id` }],
    }).postStats({ serverCount: 3 });
    expect(fake.requests.map((r) => [r.method, r.url, r.headers.authorization, r.body])).toEqual([
      [
        'POST',
        `/top.gg/api/bots/${BOT}/stats`,
        'tok',
        '{"server_count":1234,"shard_count":2,"shards":[600,634]}',
      ],
      ['POST', `/top.gg/api/bots/${BOT}/stats`, 'tok', '{"server_count":7,"shard_count":2,"shard_id":1}'],
      ['POST', `/mine/${BOT}`, 'tok', '{"server_count":3}'],
    ]);
    expect(() => client({ legacyApi: ['nope.example'] })).toThrow('unknown list id "nope.example"');
  });

  it('skips lists without a token (reported as skipped, never failed) and honours only/skip', async () => {
    const bot = client({ tokens: { topgg: 'only-top', 'yabl.xyz': 'y' } });
    const report = await bot.postStats({ serverCount: 9 }, { skip: ['yabl.xyz'] });
    expect(report.posted.map((r) => r.listId)).toEqual(['top.gg']);
    expect(report.failed).toEqual([]);
    expect(report.skipped.length).toBe(lists.filter((l) => l.supports.post).length - 2);
    expect(report.skipped.every((r) => r.reason === 'no token')).toBe(true);
    expect(fake.requests.map((r) => r.headers.authorization)).toEqual(['Bearer only-top']);
    await expect(bot.postStats({ serverCount: 9 }, { only: ['nope.example'] })).rejects.toThrow(
      /unknown list id/,
    );
  });

  it('reads tokens from LIST_TOKEN_<ID> in both the literal and the portable form; the tokens option wins', async () => {
    const bot = client({
      tokens: { 'yabl.xyz': 'from-option' },
      env: {
        'LIST_TOKEN_TOP.GG': 'literal',
        LIST_TOKEN_DISFORGE_COM: 'portable',
        LIST_TOKEN_YABL_XYZ: 'from-env',
      },
    });
    const report = await bot.postStats({ serverCount: 3 });
    expect(report.posted.map((r) => r.listId).sort()).toEqual(['disforge.com', 'top.gg', 'yabl.xyz']);
    const auth = Object.fromEntries(fake.requests.map((r) => [r.url.split('/')[1], r.headers.authorization]));
    expect(auth).toEqual({
      'top.gg': 'Bearer literal',
      'disforge.com': 'portable',
      'yabl.xyz': 'from-option',
    });
  });

  it('emits statsPosted with the report after each fan-out', async () => {
    const bot = client({ tokens: { 'top.gg': 't' } });
    const seen: unknown[] = [];
    bot.on('statsPosted', (r) => seen.push(r));
    const report = await bot.postStats({ serverCount: 4 });
    expect(seen).toEqual([report]);
  });

  it('spaces lists postSpacingMs apart', async () => {
    const bot = client({
      tokens: { 'top.gg': 'a', 'yabl.xyz': 'b', 'disforge.com': 'c' },
      postSpacingMs: 150,
    });
    await bot.postStats({ serverCount: 4 });
    const times = fake.requests.map((r) => r.at);
    expect(times).toHaveLength(3);
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(140);
    expect(times[2]! - times[1]!).toBeGreaterThanOrEqual(140);
  });
});

describe('postStats limits', () => {
  it('retries once after a 429 whose Retry-After is at most 30 s', async () => {
    let calls = 0;
    fake.responder = () =>
      ++calls === 1
        ? { status: 429, body: '{}', headers: { 'retry-after': '0.2' } }
        : { status: 200, body: '{}' };
    const result = await client({ tokens: { 'top.gg': 't' } }).postStatsTo('top.gg', { serverCount: 5 });
    expect(result).toMatchObject({ outcome: 'posted', status: 200, retried: true });
    expect(fake.requests).toHaveLength(2);
  });

  it("never retries top.gg's one-hour block and holds the list until it ends", async () => {
    fake.responder = (req) =>
      req.url.startsWith('/top.gg/')
        ? { status: 429, body: '{"retry-after":3600}' }
        : { status: 200, body: '{}' };
    let now = 1_000_000;
    const bot = client({ tokens: { 'top.gg': 't', 'yabl.xyz': 'y' }, now: () => now });
    const first = await bot.postStats({ serverCount: 5 });
    expect(first.failed).toEqual([
      expect.objectContaining({ listId: 'top.gg', status: 429, retryAfter: 3600 }),
    ]);
    expect(fake.requests.filter((r) => r.url.startsWith('/top.gg/'))).toHaveLength(1);
    fake.responder = () => ({ status: 200, body: '{}' });
    const second = await bot.postStats({ serverCount: 5 });
    expect(second.skipped.find((r) => r.listId === 'top.gg')?.reason).toMatch(/rate limited/);
    now += 3601_000;
    const third = await bot.postStats({ serverCount: 5 });
    expect(third.posted.map((r) => r.listId)).toContain('top.gg');
  });

  it('does not retry a second 429 and reports it as failed', async () => {
    fake.responder = () => ({ status: 429, body: '{"retry_after":0.05}' });
    const result = await client({ tokens: { 'top.gg': 't' } }).postStatsTo('topgg', { serverCount: 5 });
    expect(result).toMatchObject({ outcome: 'failed', status: 429 });
    expect(fake.requests).toHaveLength(2);
  });

  it("reports a 401 (bad token) as failed with the list's message and a 204 as posted, without retrying either", async () => {
    fake.responder = (req) =>
      req.url.startsWith('/top.gg/') ? { status: 401, body: '{"error":"Unauthorized"}' } : { status: 204 };
    const report = await client({ tokens: { 'top.gg': 'bad', 'bots.ondiscord.xyz': 'ok' } }).postStats({
      serverCount: 5,
    });
    expect(report.failed).toEqual([
      {
        listId: 'top.gg',
        outcome: 'failed',
        status: 401,
        retried: false,
        reason: '{"error":"Unauthorized"}',
        retryAfter: null,
      },
    ]);
    expect(report.posted).toEqual([
      { listId: 'bots.ondiscord.xyz', outcome: 'posted', status: 204, retried: false },
    ]);
    expect(fake.requests).toHaveLength(2);
  });

  it('retries 5xx twice by default, then reports the failure', async () => {
    fake.responder = () => ({ status: 502, body: 'bad gateway' });
    const result = await client({ tokens: { 'top.gg': 't' } }).postStatsTo('top.gg', { serverCount: 5 });
    expect(result).toMatchObject({ outcome: 'failed', status: 502, reason: 'bad gateway' });
    expect(fake.requests).toHaveLength(3);
  });

  it('gives up on a hanging list after the timeout and reports it, without throwing', async () => {
    fake.responder = () => ({ status: 200, delayMs: 2000 });
    const bot = client({ tokens: { 'top.gg': 't' }, fetchOptions: { timeoutMs: 100, retries: 0 } });
    const result = await bot.postStatsTo('top.gg', { serverCount: 5 });
    expect(result.outcome).toBe('failed');
    expect(result.status).toBeNull();
  });

  it('posts to custom lists and honours authHeaders overrides', async () => {
    const bot = new Botlists({
      botId: BOT,
      env: { LIST_TOKEN_MYLIST_EXAMPLE: 'custom-token' },
      tokens: { 'top.gg': 't' },
      postSpacingMs: 0,
      authHeaders: { 'top.gg': 'x-api-key' },
      lists: [
        ...rebasedOverrides(base),
        { id: 'mylist.example', apiPost: `${base}/mylist.example/bots/:id`, postField: 'guild_total' },
      ],
    });
    const report = await bot.postStats({ serverCount: 8 });
    expect(report.posted.map((r) => r.listId)).toEqual(['top.gg', 'mylist.example']);
    const custom = fake.requests.find((r) => r.url.startsWith('/mylist.example/'))!;
    expect([custom.method, custom.url, custom.headers.authorization, custom.body]).toEqual([
      'POST',
      `/mylist.example/bots/${BOT}`,
      'custom-token',
      '{"guild_total":8}',
    ]);
    const topgg = fake.requests.find((r) => r.url.startsWith('/top.gg/'))!;
    expect(topgg.headers['x-api-key']).toBe('Bearer t');
    expect(topgg.headers.authorization).toBeUndefined();
    await expect(
      new Botlists({ env: {}, tokens: { 'top.gg': 't' } }).postStats({ serverCount: 1 }),
    ).rejects.toThrow(/botId is required/);
  });

  it('skips a list the status board marks shut down', async () => {
    fake.responder = (req) =>
      req.url === '/yabl.xyz'
        ? { status: 200, body: 'Buy this domain', headers: { 'content-type': 'text/html' } }
        : { status: 200, body: '{}' };
    const bot = client({ tokens: { 'top.gg': 't', 'yabl.xyz': 'y' }, status: { baseUrl: base } });
    const board = await bot.refreshStatus();
    expect(board.entries.find((e) => e.listId === 'yabl.xyz')?.state).toBe('shutdown');
    fake.requests.length = 0;
    const report = await bot.postStats({ serverCount: 3 });
    expect(report.posted.map((r) => r.listId)).toEqual(['top.gg']);
    expect(report.skipped.find((r) => r.listId === 'yabl.xyz')?.reason).toBe('site shutdown');
    expect(fake.requests.map((r) => r.url.split('/')[1])).toEqual(['top.gg']);
    await expect(client({ disableStatusCheck: true }).refreshStatus()).rejects.toThrow(/disabled/);
    const printed: string[] = [];
    const log = vi.spyOn(console, 'log').mockImplementation((line: string) => void printed.push(line));
    try {
      const statusEvents: unknown[] = [];
      bot.on('status', (b) => statusEvents.push(b));
      await bot.checkAndReportStatus(true);
      expect(statusEvents).toHaveLength(1);
    } finally {
      log.mockRestore();
    }
    expect(printed[0]).toMatch(/^LIST\s+STATE/);
    expect(printed[0]).toMatch(/yabl\.xyz +shutdown/);
    expect(printed[1]).toMatch(
      /Open a removal issue:\nhttps:\/\/github\.com\/botlists\/botlists\/issues\/new\?title=List\+shutdown%3A\+yabl\.xyz/,
    );
  });

  it('posts stats from a statsProvider or a sharded discord.js-like client', async () => {
    await client({ tokens: { 'top.gg': 't' }, statsProvider: async () => ({ serverCount: 77 }) }).postStats();
    expect(fake.requests.at(-1)!.body).toBe('{"server_count":77}');
    const guilds = [0, 0, 1, 1, 1, 2].map((shardId) => ({ shardId }));
    const sharded = {
      user: { id: BOT },
      guilds: { cache: { size: 2 } },
      shard: {
        count: 3,
        // Two processes: one runs shards 0 and 1, the other shard 2.
        broadcastEval: async (fn: (c: never) => unknown) => [
          fn({ guilds: { cache: new Map(guilds.slice(0, 5).map((g, i) => [String(i), g])) } } as never),
          fn({ guilds: { cache: new Map(guilds.slice(5).map((g, i) => [String(i), g])) } } as never),
        ],
      },
    };
    await new Botlists({
      client: sharded,
      tokens: { 'top.gg': 't' },
      env: {},
      lists: rebasedOverrides(base),
    }).postStats();
    // top.gg v1 metrics take the totals only (no per-shard array).
    expect(fake.requests.at(-1)!.url).toBe('/top.gg/api/v1/projects/@me/metrics');
    expect(fake.requests.at(-1)!.body).toBe('{"server_count":6,"shard_count":3}');
  });
});
