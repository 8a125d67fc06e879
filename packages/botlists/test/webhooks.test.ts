import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import {
  Botlists,
  type ParsedWebhook,
  type RequestLog,
  type UniversalComment,
  type UniversalVote,
  VoteWebhookServer,
  type WebhookOptions,
} from '../src/index.js';

const SECRET = 'whs_test_secret_0123456789';
const HMAC_KEY = 'hmac-key-for-voidbots';
/** A fixed clock: Saturday 2026-11-21 12:00:00 UTC. */
const T0 = Date.UTC(2026, 10, 21, 12, 0, 0);

const servers: VoteWebhookServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.stop()));
});

async function start(options: WebhookOptions = {}) {
  let now = T0;
  const server = new VoteWebhookServer({
    host: '127.0.0.1',
    port: 0,
    secret: SECRET,
    now: () => now,
    ...options,
  });
  servers.push(server);
  const address = await server.start();
  const events: Record<string, unknown[]> = {};
  for (const name of ['vote', 'test', 'comment', 'review', 'rating', 'raw', 'request', 'error'] as const) {
    events[name] = [];
    server.on(name, (payload: unknown) => events[name]!.push(payload));
  }
  return {
    server,
    address,
    events,
    advance: (ms: number) => {
      now += ms;
    },
    post: (list: string, body: string, headers: Record<string, string> = {}) =>
      fetch(`${address}/${list}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body,
      }),
  };
}

const v1Header = (secret: string, t: number, raw: string) =>
  `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${raw}`).digest('hex')}`;
const hmacHex = (key: string, raw: string) => createHmac('sha256', key).update(raw).digest('hex');

const TOPGG_V0 = JSON.stringify({
  bot: '111111111111111111',
  user: '222222222222222222',
  type: 'upvote',
  isWeekend: true,
  query: '?ref=home&x=1',
});
const TOPGG_V1 = JSON.stringify({
  type: 'vote.create',
  data: {
    id: '808499215864008704',
    weight: 2,
    created_at: '2026-11-21T12:00:00.000Z',
    expires_at: '2026-11-22T00:00:00.000Z',
    project: {
      id: '803190510032756736',
      type: 'bot',
      platform: 'discord',
      platform_id: '111111111111111111',
    },
    user: {
      id: '3949456393249234923',
      platform_id: '222222222222222222',
      name: 'voter',
      avatar_url: 'https://cdn.example/a.png',
    },
    query: { ref: 'home' },
  },
});
const SPEC_V1 = JSON.stringify({
  vote: { userId: '222222222222222222', botId: '111111111111111111', type: 'vote' },
});

describe('VoteWebhookServer: secrets and signatures over real HTTP', () => {
  it('accepts top.gg v0 with the legacy Authorization secret and normalises the vote', async () => {
    const h = await start();
    expect(h.address).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/botlists$/);
    const res = await h.post('top.gg', TOPGG_V0, { authorization: SECRET });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
    const vote = h.events.vote![0] as UniversalVote;
    expect(vote).toMatchObject({
      listId: 'top.gg',
      voterId: '222222222222222222',
      botId: '111111111111111111',
      weekend: true,
      weight: 2,
      isTest: false,
      query: { ref: 'home', x: '1' },
    });
    expect(vote.raw).toEqual(JSON.parse(TOPGG_V0));
    expect((h.events.raw![0] as ParsedWebhook).kind).toBe('vote');
  });

  it('verifies the top.gg v1 signature over the raw bytes, for both body shapes', async () => {
    const h = await start();
    const t = Math.floor(T0 / 1000);
    // Whitespace a re-serialising framework would lose: the HMAC must be computed over these exact bytes.
    const raw = TOPGG_V1.replace('{', '{ ');
    expect((await h.post('top.gg', raw, { 'x-topgg-signature': v1Header(SECRET, t, raw) })).status).toBe(200);
    expect(h.events.vote![0]).toMatchObject({
      voterId: '222222222222222222',
      botId: '111111111111111111',
      weight: 2,
      voterName: 'voter',
      query: { ref: 'home' },
    });
    expect(
      (await h.post('top.gg', SPEC_V1, { 'x-topgg-signature': v1Header(SECRET, t, SPEC_V1) })).status,
    ).toBe(200);
    const flat = h.events.vote![1] as UniversalVote;
    expect(flat).toMatchObject({ voterId: '222222222222222222', botId: '111111111111111111', isTest: false });
    expect(flat.raw).toEqual(JSON.parse(SPEC_V1));
  });

  it('routes v1 test deliveries to the test event with isTest', async () => {
    const h = await start();
    const t = Math.floor(T0 / 1000);
    const body = JSON.stringify({ vote: { userId: '3', botId: '4', type: 'test' } });
    expect((await h.post('top.gg', body, { 'x-topgg-signature': v1Header(SECRET, t, body) })).status).toBe(
      200,
    );
    const documented = JSON.stringify({
      type: 'webhook.test',
      data: { project: { platform_id: '4' }, user: { platform_id: '5', name: 'x' } },
    });
    expect(
      (await h.post('top.gg', documented, { 'x-topgg-signature': v1Header(SECRET, t, documented) })).status,
    ).toBe(200);
    expect(h.events.vote).toEqual([]);
    expect(h.events.test!.map((v) => (v as UniversalVote).voterId)).toEqual(['3', '5']);
    expect((h.events.test![0] as UniversalVote).isTest).toBe(true);
  });

  it('answers 401 for tampered, stale, future, wrong-secret and malformed v1 signatures', async () => {
    const h = await start();
    const t = Math.floor(T0 / 1000);
    const cases: Record<string, [string, string]> = {
      tampered: [TOPGG_V1.replace('222222222222222222', '999999999999999999'), v1Header(SECRET, t, TOPGG_V1)],
      stale: [TOPGG_V1, v1Header(SECRET, t - 601, TOPGG_V1)],
      future: [TOPGG_V1, v1Header(SECRET, t + 601, TOPGG_V1)],
      wrongSecret: [TOPGG_V1, v1Header('whs_other', t, TOPGG_V1)],
      malformed: [TOPGG_V1, 'v1=abc'],
    };
    for (const [name, [body, header]] of Object.entries(cases)) {
      const res = await h.post('top.gg', body, { 'x-topgg-signature': header });
      expect(res.status, name).toBe(401);
    }
    // Inside the 10-minute window still passes.
    expect(
      (await h.post('top.gg', TOPGG_V1, { 'x-topgg-signature': v1Header(SECRET, t - 599, TOPGG_V1) })).status,
    ).toBe(200);
    expect(h.events.vote).toHaveLength(1);
    expect(h.events.error!.length).toBe(5);
  });

  it('answers 401 with no secret or a wrong one, and compares secrets exactly (case, prefix, length)', async () => {
    const h = await start();
    for (const headers of [
      {},
      { authorization: 'wrong' },
      { authorization: SECRET.toUpperCase() },
      { authorization: `${SECRET}x` },
    ] as Record<string, string>[]) {
      expect((await h.post('top.gg', TOPGG_V0, headers)).status).toBe(401);
    }
    for (const headers of [{ authorization: `Bearer ${SECRET}` }, { 'x-webhook-secret': SECRET }] as Record<
      string,
      string
    >[]) {
      expect((await h.post('top.gg', TOPGG_V0, headers)).status).toBe(200);
    }
  });

  it('requires a valid per-list HMAC in x-signature-256 / x-hub-signature-256 / x-signature', async () => {
    const h = await start({
      secret: { 'voidbots.net': 'vb-secret' },
      security: { hmac: { voidbots: HMAC_KEY } },
    });
    const body = JSON.stringify({ bot: '1', user: '77', type: 'vote' });
    // Distinct deliveries: the same signed body twice is a replay (one vote).
    const body2 = body.replace('77', '78');
    const body3 = body.replace('77', '79');
    const auth = { authorization: 'vb-secret' };
    expect(
      (
        await h.post('voidbots.net', body, {
          ...auth,
          'x-signature-256': `sha256=${hmacHex(HMAC_KEY, body)}`,
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await h.post('voidbots.net', body2, {
          ...auth,
          'x-hub-signature-256': `sha256=${hmacHex(HMAC_KEY, body2)}`,
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await h.post('voidbots.net', body3, {
          ...auth,
          'x-signature': hmacHex(HMAC_KEY, body3).toUpperCase(),
        })
      ).status,
    ).toBe(200);
    expect((await h.post('voidbots.net', body, auth)).status).toBe(401);
    expect(
      (await h.post('voidbots.net', `${body} `, { ...auth, 'x-signature': hmacHex(HMAC_KEY, body) })).status,
    ).toBe(401);
    expect(
      (await h.post('voidbots.net', body, { ...auth, 'x-signature': hmacHex('other', body) })).status,
    ).toBe(401);
    // The HMAC does not replace the list's secret.
    expect((await h.post('voidbots.net', body, { 'x-signature': hmacHex(HMAC_KEY, body) })).status).toBe(401);
    expect(h.events.vote).toHaveLength(3);
  });

  it('verifies topbot.gg signatures over <x-topbot-timestamp>.<body>', async () => {
    const h = await start({ secret: undefined, security: { hmac: { 'topbot.gg': 'tb-key' } } });
    const body = JSON.stringify({ event: 'vote', flagged: false, user: '31' });
    const ts = '1795262400';
    const sig = createHmac('sha256', 'tb-key').update(`${ts}.${body}`).digest('hex');
    expect(
      (await h.post('topbot.gg', body, { 'x-topbot-signature': sig, 'x-topbot-timestamp': ts })).status,
    ).toBe(200);
    expect(
      (await h.post('topbot.gg', body, { 'x-topbot-signature': sig, 'x-topbot-timestamp': '1795262401' }))
        .status,
    ).toBe(401);
    expect(h.events.vote).toHaveLength(1);
  });

  it('answers 500 without details when a vote listener throws, so the list redelivers', async () => {
    const h = await start();
    h.server.on('vote', () => {
      throw new Error('database down');
    });
    const res = await h.post('top.gg', TOPGG_V0, { authorization: SECRET });
    expect(res.status).toBe(500);
    expect(await res.text()).toBe('{"ok":false,"error":"handler failed"}');
    expect((h.events.error![0] as Error).message).toBe('database down');
  });

  it('verifies dlist.gg JWT bodies with the secret', async () => {
    const h = await start({ secret: { 'dlist.gg': 'jwt-secret' } });
    const b64 = (v: object) => Buffer.from(JSON.stringify(v)).toString('base64url');
    const sign = (secret: string, claims: object) => {
      const unsigned = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64(claims)}`;
      return `${unsigned}.${createHmac('sha256', secret).update(unsigned).digest('base64url')}`;
    };
    expect(
      (await h.post('discordlist.gg', sign('jwt-secret', { user_id: '55', bot_id: '66', is_test: false })))
        .status,
    ).toBe(200);
    expect(h.events.vote![0]).toMatchObject({
      listId: 'discordlist.gg',
      voterId: '55',
      botId: '66',
      isTest: false,
    });
    expect((await h.post('discordlist.gg', sign('nope', { user_id: '55', bot_id: '66' }))).status).toBe(401);
    expect(
      (await h.post('discordlist.gg', sign('jwt-secret', { user_id: '55', is_test: true }))).status,
    ).toBe(200);
    expect(h.events.test).toHaveLength(1);
  });

  it('start() refuses to run without a secret unless requireSecret is false', async () => {
    await expect(new VoteWebhookServer({ host: '127.0.0.1', port: 0 }).start()).rejects.toThrow(
      /secret is required/,
    );
    const h = await start({ secret: undefined, security: { requireSecret: false } });
    expect((await h.post('voidbots.net', JSON.stringify({ user: '1', bot: '2', type: 'vote' }))).status).toBe(
      200,
    );
  });
});

describe('VoteWebhookServer: limits, bans and routing', () => {
  it('rate limits 30 requests per 60 s per IP with Retry-After, then lets the IP back in', async () => {
    const h = await start();
    for (let i = 0; i < 30; i++)
      expect((await h.post('top.gg', TOPGG_V0, { authorization: SECRET })).status).toBe(200);
    h.advance(15_000);
    const limited = await h.post('top.gg', TOPGG_V0, { authorization: SECRET });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('45');
    h.advance(45_000);
    expect((await h.post('top.gg', TOPGG_V0, { authorization: SECRET })).status).toBe(200);
  });

  it('bans an IP for 15 minutes after 10 consecutive failures (403 even with the right secret)', async () => {
    const h = await start();
    for (let i = 0; i < 9; i++)
      expect((await h.post('top.gg', TOPGG_V0, { authorization: 'bad' })).status).toBe(401);
    // A success resets the streak.
    expect((await h.post('top.gg', TOPGG_V0, { authorization: SECRET })).status).toBe(200);
    h.advance(60_000);
    for (let i = 0; i < 10; i++)
      expect((await h.post('top.gg', TOPGG_V0, { authorization: 'bad' })).status).toBe(401);
    const banned = await h.post('top.gg', TOPGG_V0, { authorization: SECRET });
    expect(banned.status).toBe(403);
    expect(banned.headers.get('retry-after')).toBe('900');
    h.advance(15 * 60_000);
    expect((await h.post('top.gg', TOPGG_V0, { authorization: SECRET })).status).toBe(200);
  });

  it('uses X-Forwarded-For only with trustProxy', async () => {
    const h = await start({ security: { trustProxy: true, banAfterFailures: 2 } });
    await h.post('top.gg', TOPGG_V0, { authorization: 'bad', 'x-forwarded-for': '203.0.113.9, 10.0.0.1' });
    await h.post('top.gg', TOPGG_V0, { authorization: 'bad', 'x-forwarded-for': '203.0.113.9' });
    expect(
      (await h.post('top.gg', TOPGG_V0, { authorization: SECRET, 'x-forwarded-for': '203.0.113.9' })).status,
    ).toBe(403);
    expect(
      (await h.post('top.gg', TOPGG_V0, { authorization: SECRET, 'x-forwarded-for': '198.51.100.1' })).status,
    ).toBe(200);
    const logs = h.events.request as RequestLog[];
    expect(logs.map((l) => l.ip)).toEqual(['203.0.113.9', '203.0.113.9', '203.0.113.9', '198.51.100.1']);
    const direct = await start({ security: { banAfterFailures: 1 } });
    await direct.post('top.gg', TOPGG_V0, { authorization: 'bad', 'x-forwarded-for': '203.0.113.7' });
    expect(
      (await direct.post('top.gg', TOPGG_V0, { authorization: SECRET, 'x-forwarded-for': '198.51.100.2' }))
        .status,
    ).toBe(403);
  });

  it('answers 403 for lists outside allowedLists, 413 above 512 KB, 404 off-path or for unknown lists, 405 for GET, 400 for bad JSON', async () => {
    const h = await start({ security: { allowedLists: ['topgg'] } });
    expect((await h.post('voidbots.net', '{}', { authorization: SECRET })).status).toBe(403);
    const big = JSON.stringify({ user: '1', pad: 'x'.repeat(512 * 1024) });
    expect((await h.post('top.gg', big, { authorization: SECRET })).status).toBe(413);
    expect(
      (await fetch(`${h.address.replace('/botlists', '')}/other`, { method: 'POST', body: '{}' })).status,
    ).toBe(404);
    expect((await h.post('nope.example', '{}', { authorization: SECRET })).status).toBe(404);
    const get = await fetch(`${h.address}/top.gg`);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect((await h.post('top.gg', '{not json', { authorization: SECRET })).status).toBe(400);
    expect((await h.post('top.gg', '{"type":"upvote"}', { authorization: SECRET })).status).toBe(400);
    const body = await (await h.post('top.gg', '{not json', { authorization: SECRET })).text();
    expect(body).toBe('{"ok":false,"error":"invalid JSON"}');
  });

  it('stops reading a chunked body at 512 KB, survives aborted uploads and odd bodies', async () => {
    const h = await start();
    const chunk = new TextEncoder().encode('x'.repeat(64 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 20) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const res = await fetch(`${h.address}/top.gg`, {
      method: 'POST',
      headers: { authorization: SECRET },
      body: stream,
      duplex: 'half',
    } as RequestInit).catch((e: unknown) => e);
    // Either the 413 arrives, or the socket is closed mid-upload: never a 200 and never a crash.
    if (res instanceof Response) expect(res.status).toBe(413);
    for (const body of ['[]', '42', 'null', '"x"', '{"user":{"nested":true}}']) {
      expect((await h.post('top.gg', body, { authorization: SECRET })).status, body).toBe(400);
    }
    expect((await h.post('top.gg', TOPGG_V0, { authorization: SECRET })).status).toBe(200);
  });

  it('accepts the list id from ?list= on the bare path', async () => {
    const h = await start();
    const res = await fetch(`${h.address}?list=topgg`, {
      method: 'POST',
      headers: { authorization: SECRET },
      body: TOPGG_V0,
    });
    expect(res.status).toBe(200);
    expect((h.events.vote![0] as UniversalVote).listId).toBe('top.gg');
  });

  it('emits comment, review and rating events with rating and content', async () => {
    const h = await start({ secret: 'abc' });
    const review = JSON.stringify({
      type: 'review',
      bot: { id: '9' },
      user: { id: '8', username: 'ann' },
      review: { rating: 4, content: 'great bot' },
    });
    const t = Math.floor(T0 / 1000);
    expect(
      (await h.post('disq.ink', review, { 'x-disq-signature': v1Header('abc', t, review) })).status,
    ).toBe(200);
    expect(h.events.review![0]).toMatchObject({
      kind: 'review',
      listId: 'disq.ink',
      authorId: '8',
      authorName: 'ann',
      botId: '9',
      rating: 4,
      content: 'great bot',
    });
    await h.post('disq.ink', JSON.stringify({ type: 'comment', user: { id: '8' }, content: 'hi' }), {
      authorization: 'abc',
    });
    await h.post('disq.ink', JSON.stringify({ type: 'rating', user: { id: '8' }, rating: 9 }), {
      authorization: 'abc',
    });
    expect((h.events.comment![0] as UniversalComment).content).toBe('hi');
    expect((h.events.rating![0] as UniversalComment).rating).toBeNull();
  });
});

describe('ingest and Botlists wiring', () => {
  it('ingest enforces transport auth only when headers are given', () => {
    const server = new VoteWebhookServer({ secret: SECRET, now: () => T0 });
    const votes: UniversalVote[] = [];
    server.on('vote', (v: UniversalVote) => votes.push(v));
    expect(server.ingest('top.gg', TOPGG_V0, { headers: { authorization: 'bad' } })).toBeNull();
    const t = Math.floor(T0 / 1000);
    expect(
      server.ingest('top.gg', Buffer.from(TOPGG_V1), {
        headers: { 'x-topgg-signature': v1Header(SECRET, t, TOPGG_V1) },
      })?.kind,
    ).toBe('vote');
    expect(server.ingest('top.gg', JSON.parse(TOPGG_V0))?.vote?.voterId).toBe('222222222222222222');
    expect(votes).toHaveLength(2);
  });

  it('Botlists forwards webhook events and ingestWebhook parses framework bodies', async () => {
    const lists = new Botlists({
      botId: '1',
      env: {},
      webhook: { host: '127.0.0.1', port: 0, secret: SECRET },
    });
    const seen: string[] = [];
    lists.on('vote', (v: UniversalVote) => seen.push(`vote:${v.listId}:${v.voterId}`));
    lists.on('test', (v: UniversalVote) => seen.push(`test:${v.listId}`));
    const address = await lists.startWebhooks(0);
    try {
      const res = await fetch(`${address}/dbl`, {
        method: 'POST',
        headers: { authorization: SECRET },
        body: TOPGG_V0,
      });
      expect(res.status).toBe(200);
      lists.ingestWebhook('discordbotlist.com', { admin: false, avatar: 'abc', username: 'u', id: '42' });
      lists.ingestWebhook('voidbots', { user: '7', bot: '1', type: 'vote' }, true);
      expect(seen).toEqual([
        'vote:top.gg:222222222222222222',
        'vote:discordbotlist.com:42',
        'test:voidbots.net',
      ]);
    } finally {
      await lists.stopWebhooks();
    }
    expect(lists.webhooks.isRunning).toBe(false);
  });
});

describe('VoteWebhookServer: hardening', () => {
  const t = Math.floor(T0 / 1000);

  it('answers 414 to an over-long request target before parsing it (the slash-run list id)', async () => {
    const h = await start();
    const res = await fetch(`${h.address}?list=${'/'.repeat(16_000)}x`, { method: 'POST', body: '{}' });
    expect(res.status).toBe(414);
    expect(await res.json()).toEqual({ ok: false, error: 'URI too long' });
    // Inside the bound a slash run is still only an unknown list.
    const short = await fetch(`${h.address}?list=${'/'.repeat(1_900)}x`, { method: 'POST', body: '{}' });
    expect(short.status).toBe(404);
  });

  it('behind a trusted proxy, counts the right-most untrusted X-Forwarded-For hop, so rewriting the left one does not dodge the ban', async () => {
    const h = await start({ security: { trustProxy: true } });
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      // What a proxy forwards when the client wrote its own X-Forwarded-For: the proxy appends the real peer.
      const chain = `198.51.100.${i}, 203.0.113.50`;
      statuses.push(
        (await h.post('top.gg', TOPGG_V0, { authorization: 'bad', 'x-forwarded-for': chain })).status,
      );
    }
    expect(statuses).toEqual([...Array(10).fill(401), 403, 403]);
    expect((h.events.request as RequestLog[]).every((log) => log.ip === '203.0.113.50')).toBe(true);
  });

  it('trusts only the configured proxies, and counts an IPv6 client per /64', async () => {
    const listed = await start({ security: { trustProxy: ['127.0.0.1'], banAfterFailures: 2 } });
    // 10.0.0.1 is not in the list: it is the client, whatever it claims to forward.
    for (const spoof of ['198.51.100.1', '198.51.100.2'])
      await listed.post('top.gg', TOPGG_V0, {
        authorization: 'bad',
        'x-forwarded-for': `${spoof}, 10.0.0.1`,
      });
    const logs = listed.events.request as RequestLog[];
    expect(logs.map((log) => log.ip)).toEqual(['10.0.0.1', '10.0.0.1']);
    expect(
      (await listed.post('top.gg', TOPGG_V0, { authorization: SECRET, 'x-forwarded-for': '10.0.0.1' }))
        .status,
    ).toBe(403);

    const elsewhere = await start({ security: { trustProxy: ['192.0.2.1'], banAfterFailures: 1 } });
    await elsewhere.post('top.gg', TOPGG_V0, { authorization: 'bad', 'x-forwarded-for': '198.51.100.7' });
    expect((elsewhere.events.request as RequestLog[])[0]!.ip).toBe('127.0.0.1');

    const v6 = await start({ security: { trustProxy: true, banAfterFailures: 2 } });
    await v6.post('top.gg', TOPGG_V0, { authorization: 'bad', 'x-forwarded-for': '2001:db8:1:2::1' });
    await v6.post('top.gg', TOPGG_V0, { authorization: 'bad', 'x-forwarded-for': '2001:db8:1:2:ffff::9' });
    const sameNetwork = { authorization: SECRET, 'x-forwarded-for': '2001:db8:1:2:abcd::3' };
    expect((await v6.post('top.gg', TOPGG_V0, sameNetwork)).status).toBe(403);
    const otherNetwork = { authorization: SECRET, 'x-forwarded-for': '2001:db8:1:3::1' };
    expect((await v6.post('top.gg', TOPGG_V0, otherNetwork)).status).toBe(200);
  });

  it('refuses a replayed signed delivery: 200 with duplicate, and no second vote', async () => {
    const h = await start();
    const headers = { 'x-topgg-signature': v1Header(SECRET, t, TOPGG_V1) };
    const first = await h.post('top.gg', TOPGG_V1, headers);
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ ok: true });
    h.advance(5 * 60_000);
    const again = await h.post('top.gg', TOPGG_V1, headers);
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ ok: true, duplicate: true });
    expect(h.events.vote).toHaveLength(1);
    // An extra v1 value does not make the same signed content new.
    const padded = { 'x-topgg-signature': `${headers['x-topgg-signature']},v1=${'0'.repeat(64)}` };
    expect(await (await h.post('top.gg', TOPGG_V1, padded)).json()).toEqual({ ok: true, duplicate: true });
    // A new delivery (new timestamp) is a new vote.
    h.advance(1_000);
    const later = { 'x-topgg-signature': v1Header(SECRET, t + 1, TOPGG_V1) };
    expect(await (await h.post('top.gg', TOPGG_V1, later)).json()).toEqual({ ok: true });
    expect(h.events.vote).toHaveLength(2);
    // Once the tolerance is over the copy is stale, so forgetting it is safe.
    h.advance(20 * 60_000);
    expect((await h.post('top.gg', TOPGG_V1, headers)).status).toBe(401);
  });

  it('refuses replayed JWT bodies and HMAC-signed bodies, and through ingest', async () => {
    const h = await start({
      secret: { 'dlist.gg': 'jwt-secret' },
      security: { hmac: { 'voidbots.net': HMAC_KEY } },
    });
    const b64 = (v: object) => Buffer.from(JSON.stringify(v)).toString('base64url');
    const unsigned = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ user_id: '55', bot_id: '66' })}`;
    const token = `${unsigned}.${createHmac('sha256', 'jwt-secret').update(unsigned).digest('base64url')}`;
    expect(await (await h.post('discordlist.gg', token)).json()).toEqual({ ok: true });
    expect(await (await h.post('discordlist.gg', token)).json()).toEqual({ ok: true, duplicate: true });
    const body = JSON.stringify({ user: '77', bot: '66' });
    const signed = { authorization: SECRET, 'x-signature-256': hmacHex(HMAC_KEY, body) };
    expect(await (await h.post('voidbots.net', body, signed)).json()).toEqual({ ok: true });
    expect(await (await h.post('voidbots.net', body, signed)).json()).toEqual({ ok: true, duplicate: true });
    expect(h.events.vote).toHaveLength(2);

    const server = new VoteWebhookServer({ secret: SECRET, now: () => T0 });
    const votes: UniversalVote[] = [];
    server.on('vote', (vote: UniversalVote) => votes.push(vote));
    const headers = { 'x-topgg-signature': v1Header(SECRET, t, TOPGG_V1) };
    expect(server.ingest('top.gg', TOPGG_V1, { headers })?.kind).toBe('vote');
    expect(server.ingest('top.gg', TOPGG_V1, { headers })).toBeNull();
    expect(votes).toHaveLength(1);
  });

  it('accepts secret-only deliveries by default (they cannot be recognised) and refuses them with acceptSecretOnly: false', async () => {
    const open = await start();
    for (let i = 0; i < 3; i++)
      expect((await open.post('top.gg', TOPGG_V0, { authorization: SECRET })).status).toBe(200);
    expect(open.events.vote).toHaveLength(3);

    const strict = await start({ security: { acceptSecretOnly: false } });
    const refused = await strict.post('top.gg', TOPGG_V0, { authorization: SECRET });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({
      ok: false,
      error: 'secret-only delivery refused (acceptSecretOnly is off)',
    });
    const signed = await strict.post('top.gg', TOPGG_V1, {
      'x-topgg-signature': v1Header(SECRET, t, TOPGG_V1),
    });
    expect(signed.status).toBe(200);
    expect(strict.events.vote).toHaveLength(1);
  });

  it('keeps a ban for its whole length however many other clients come by', async () => {
    const h = await start({ security: { trustProxy: true, banAfterFailures: 1 } });
    await h.post('top.gg', TOPGG_V0, { authorization: 'bad', 'x-forwarded-for': '203.0.113.9' });
    const others = Array.from(
      { length: 10_050 },
      (_, i) => `198.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
    );
    for (let start = 0; start < others.length; start += 50) {
      await Promise.all(
        others
          .slice(start, start + 50)
          .map((ip) => fetch(`${h.address}/top.gg`, { headers: { 'x-forwarded-for': ip } })),
      );
    }
    h.advance(14 * 60_000);
    const banned = await h.post('top.gg', TOPGG_V0, {
      authorization: SECRET,
      'x-forwarded-for': '203.0.113.9',
    });
    expect(banned.status).toBe(403);
    expect(banned.headers.get('retry-after')).toBe('60');
    h.advance(60_000);
    expect(
      (await h.post('top.gg', TOPGG_V0, { authorization: SECRET, 'x-forwarded-for': '203.0.113.9' })).status,
    ).toBe(200);
  }, 60_000);
});

describe('VoteWebhookServer: bounded replay memory', () => {
  it('a full replay memory refuses new signed deliveries with 503 (redelivered later) and still recognises the ones it holds', async () => {
    const h = await start({ security: { replayCapacity: 2 } });
    const t = Math.floor(T0 / 1000);
    const signed = (at: number) => ({ 'x-topgg-signature': v1Header(SECRET, at, TOPGG_V1) });
    expect((await h.post('top.gg', TOPGG_V1, signed(t))).status).toBe(200);
    expect((await h.post('top.gg', TOPGG_V1, signed(t + 1))).status).toBe(200);
    const full = await h.post('top.gg', TOPGG_V1, signed(t + 2));
    expect(full.status).toBe(503);
    expect(full.headers.get('retry-after')).toBe('60');
    // Nothing was pushed out: the first delivery is still a duplicate.
    expect(await (await h.post('top.gg', TOPGG_V1, signed(t))).json()).toEqual({ ok: true, duplicate: true });
    expect(h.events.vote).toHaveLength(2);
    // Once the window has passed, room frees up.
    h.advance(20 * 60_000);
    expect((await h.post('top.gg', TOPGG_V1, signed(t + 1200))).status).toBe(200);
  });
});
