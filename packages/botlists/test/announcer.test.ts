import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Botlists, BotlistsError, type UniversalVote, VoteAnnouncer } from '../src/index.js';
import { createFakeDiscord } from './fakes/fake-discord.js';
import { RecordingServer } from './fakes/recording-server.js';

const discord = createFakeDiscord();
const receiver = new RecordingServer(() => ({ status: 200, body: '{}' }));
let base = '';
let external = '';
const hook = (token: string) => `${base}/api/webhooks/123456789/${token}`;

const vote = (voterId = '222222222222222222', extra: Partial<UniversalVote> = {}): UniversalVote => ({
  listId: 'top.gg',
  listName: 'Top.gg',
  voterId,
  voterName: 'alice',
  voterAvatar: 'https://cdn.discordapp.com/avatars/2/abc.png',
  botId: '111111111111111111',
  weight: 2,
  weekend: true,
  isTest: false,
  query: {},
  receivedAt: Date.UTC(2026, 10, 21, 12, 0, 0),
  raw: {},
  ...extra,
});

function collect(announcer: VoteAnnouncer) {
  const events = {
    delivered: [] as { target: string; status: number; vote: UniversalVote }[],
    errors: [] as Error[],
    dropped: [] as { vote: UniversalVote }[],
  };
  announcer.on('delivered', (e) => events.delivered.push(e));
  announcer.on('error', (e: Error) => events.errors.push(e));
  announcer.on('dropped', (e) => events.dropped.push(e));
  return events;
}

beforeAll(async () => {
  base = await discord.start();
  external = `${await receiver.start()}/hooks/votes`;
});
afterAll(async () => {
  await discord.stop();
  await receiver.stop();
});
beforeEach(() => {
  discord.requests.length = 0;
  receiver.requests.length = 0;
});

describe('VoteAnnouncer formats', () => {
  it('embed-v2 sends a valid components-v2 message with ?with_components=true and the bot identity from botToken', async () => {
    const announcer = new VoteAnnouncer({
      format: 'embed-v2',
      webhooks: [hook('v2-token')],
      botToken: 'bot-token',
      discordApiBase: `${base}/api/v10`,
      color: 0x5865f2,
      template:
        '{voter} ({voterId}) voted for {bot} ({botId}) on {list} ({listId}): +{weight}, weekend {weekend}',
      links: [
        { label: 'Vote', url: 'https://top.gg/bot/111111111111111111/vote', emoji: '🗳️' },
        { label: 'Invite', url: 'https://discord.com/oauth2/authorize?client_id=111111111111111111' },
      ],
    });
    const events = collect(announcer);
    announcer.announce(vote());
    await announcer.idle();
    expect(events.errors).toEqual([]);
    expect(events.delivered).toEqual([
      { target: `${base}/api/webhooks/123456789/***`, status: 204, vote: vote() },
    ]);
    const [me, post] = discord.requests;
    expect(me!.method).toBe('GET');
    expect(me!.headers.authorization).toBe('Bot bot-token');
    expect(post!.url).toBe('/api/webhooks/123456789/v2-token?with_components=true');
    expect(JSON.parse(post!.body)).toEqual({
      username: 'VoteBot',
      avatar_url: 'https://cdn.discordapp.com/avatars/777000000000000001/a1b2.png',
      allowed_mentions: { parse: [] },
      flags: 32768,
      components: [
        {
          type: 17,
          accent_color: 0x5865f2,
          components: [
            {
              type: 9,
              components: [
                {
                  type: 10,
                  content:
                    'alice (222222222222222222) voted for VoteBot (111111111111111111) on Top.gg (top.gg): +2, weekend yes',
                },
              ],
              accessory: {
                type: 11,
                media: { url: 'https://cdn.discordapp.com/avatars/2/abc.png' },
                description: 'alice',
              },
            },
            { type: 14, divider: true, spacing: 1 },
            { type: 10, content: '-# Top.gg · weekend vote · <t:1795262400:R>' },
            {
              type: 1,
              components: [
                {
                  type: 2,
                  style: 5,
                  label: 'Vote',
                  url: 'https://top.gg/bot/111111111111111111/vote',
                  emoji: { name: '🗳️' },
                },
                {
                  type: 2,
                  style: 5,
                  label: 'Invite',
                  url: 'https://discord.com/oauth2/authorize?client_id=111111111111111111',
                },
              ],
            },
          ],
        },
      ],
    });
  });

  it('uses the default avatar of a voter without one, and omits the action row without links', async () => {
    const announcer = new VoteAnnouncer({ format: 'embed-v2', webhooks: [hook('v2-plain')] });
    announcer.announce(vote('222222222222222222', { voterAvatar: null }));
    await announcer.idle();
    const body = JSON.parse(discord.requests[0]!.body);
    const container = body.components[0];
    // (222222222222222222 >> 22) % 6 = 52981906467 % 6 = 3
    expect(container.components[0].accessory.media.url).toBe(
      'https://cdn.discordapp.com/embed/avatars/3.png',
    );
    expect(container.components.map((c: { type: number }) => c.type)).toEqual([9, 14, 10]);
  });

  it('text and embed formats, username/avatarUrl overrides and customize', async () => {
    const text = new VoteAnnouncer({
      format: 'text',
      webhooks: [hook('text')],
      username: 'Votes',
      avatarUrl: 'https://x.test/a.png',
      botName: 'MyBot',
    });
    text.announce(vote());
    await text.idle();
    expect(JSON.parse(discord.requests[0]!.body)).toEqual({
      username: 'Votes',
      avatar_url: 'https://x.test/a.png',
      allowed_mentions: { parse: [] },
      content: '**alice** voted for **MyBot** on **Top.gg**! (+2)',
    });
    const embed = new VoteAnnouncer({
      webhooks: [hook('embed')],
      color: 255,
      customize: (v, payload) => ({ ...payload, content: `hey <@${v.voterId}>` }),
    });
    embed.announce(vote());
    await embed.idle();
    const sent = JSON.parse(discord.requests[1]!.body);
    expect(discord.requests[1]!.url).toBe('/api/webhooks/123456789/embed');
    expect(sent.content).toBe('hey <@222222222222222222>');
    expect(sent.embeds).toEqual([
      {
        title: 'New vote',
        description: '**alice** voted for **111111111111111111** on **Top.gg**! (+2)',
        color: 255,
        thumbnail: { url: 'https://cdn.discordapp.com/avatars/2/abc.png' },
        footer: { text: 'Top.gg · weekend vote' },
        timestamp: '2026-11-21T12:00:00.000Z',
      },
    ]);
  });

  it('skips a send when customize returns null', async () => {
    const announcer = new VoteAnnouncer({
      webhooks: [hook('filtered')],
      minIntervalMs: 0,
      customize: (v, p) => (v.voterId === '1' ? null : p),
    });
    const events = collect(announcer);
    announcer.announce(vote('1'));
    announcer.announce(vote('2'));
    await announcer.idle();
    expect(events.delivered.map((e) => e.vote.voterId)).toEqual(['2']);
    expect(discord.requests).toHaveLength(1);
  });

  it('posts {source, event, list, vote} to external HTTPS targets; test votes only with announceTestVotes', async () => {
    const quiet = new VoteAnnouncer({ external: [external] });
    quiet.announce(vote('1', { isTest: true }));
    await quiet.idle();
    expect(receiver.requests).toHaveLength(0);
    const loud = new VoteAnnouncer({ external: [external], announceTestVotes: true });
    loud.announce(vote('1', { isTest: true }));
    await loud.idle();
    expect(receiver.requests[0]!.url).toBe('/hooks/votes');
    expect(JSON.parse(receiver.requests[0]!.body)).toEqual({
      source: 'botlists',
      event: 'test',
      list: { id: 'top.gg', name: 'Top.gg' },
      vote: vote('1', { isTest: true }),
    });
  });

  it('refuses more than 5 links, non-Discord webhook URLs and plain-HTTP external targets', () => {
    const link = { label: 'x', url: 'https://x.test' };
    expect(() => new VoteAnnouncer({ links: [link, link, link, link, link, link] })).toThrow(BotlistsError);
    expect(() => new VoteAnnouncer({ webhooks: ['https://evil.example/api/webhooks/1/abc'] })).toThrow(
      /not a Discord webhook/,
    );
    expect(() => new VoteAnnouncer({ external: ['http://example.com/hook'] })).toThrow(/https/);
    expect(
      new VoteAnnouncer({
        webhooks: [
          'https://ptb.discord.com/api/v10/webhooks/1/abc',
          'https://discordapp.com/api/webhooks/1/abc',
        ],
      }).activeTargets,
    ).toHaveLength(2);
  });
});

describe('VoteAnnouncer delivery rules', () => {
  it('waits once on a 429 with a small retry_after, then delivers', async () => {
    const announcer = new VoteAnnouncer({ webhooks: [hook('busy')] });
    const events = collect(announcer);
    announcer.announce(vote());
    await announcer.idle();
    expect(discord.requests.map((r) => r.url)).toEqual([
      '/api/webhooks/123456789/busy',
      '/api/webhooks/123456789/busy',
    ]);
    expect(discord.requests[1]!.at - discord.requests[0]!.at).toBeGreaterThanOrEqual(200);
    expect(events.delivered).toHaveLength(1);
  });

  it('does not wait on a long retry_after: reports an error and moves on', async () => {
    const announcer = new VoteAnnouncer({ webhooks: [hook('blocked')] });
    const events = collect(announcer);
    announcer.announce(vote());
    await announcer.idle();
    expect(discord.requests).toHaveLength(1);
    expect(events.errors[0]).toMatchObject({ status: 429, retryAfter: 60 });
  });

  it('drops a target that answers 404 and tells why through error', async () => {
    const announcer = new VoteAnnouncer({ webhooks: [hook('gone'), hook('alive')], minIntervalMs: 0 });
    const events = collect(announcer);
    announcer.announce(vote('1'));
    await announcer.idle();
    announcer.announce(vote('2'));
    await announcer.idle();
    expect(events.errors).toHaveLength(1);
    expect(events.errors[0]!.message).toMatch(/404: dropped/);
    expect(events.errors[0]!.message).not.toContain('gone');
    expect(discord.requests.filter((r) => r.url.endsWith('/gone'))).toHaveLength(1);
    expect(discord.requests.filter((r) => r.url.endsWith('/alive'))).toHaveLength(2);
    expect(announcer.activeTargets).toEqual([`${base}/api/webhooks/123456789/***`]);
  });

  it('paces sends to one target and keeps only the newest votes when the queue is full', async () => {
    const announcer = new VoteAnnouncer({
      format: 'text',
      webhooks: [hook('paced')],
      minIntervalMs: 150,
      maxQueueSize: 2,
    });
    const events = collect(announcer);
    for (const id of ['1', '2', '3', '4', '5']) announcer.announce(vote(id, { voterName: `v${id}` }));
    await announcer.idle();
    expect(events.delivered.map((e) => e.vote.voterId)).toEqual(['1', '4', '5']);
    expect(events.dropped.map((e) => e.vote.voterId)).toEqual(['2', '3']);
    const times = discord.requests.map((r) => r.at);
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(140);
    expect(times[2]! - times[1]!).toBeGreaterThanOrEqual(140);
  });
});

describe('Botlists with an announcer', () => {
  it('announces votes received by the webhook server', async () => {
    const lists = new Botlists({
      botId: '1',
      env: {},
      webhook: { host: '127.0.0.1', port: 0, secret: 's3cret' },
      announcer: { enabled: true, format: 'text', webhooks: [hook('wired')], botName: 'Bot' },
    });
    const address = await lists.startWebhooks();
    try {
      const res = await fetch(`${address}/top.gg`, {
        method: 'POST',
        headers: { authorization: 's3cret' },
        body: JSON.stringify({ bot: '1', user: '42', type: 'upvote', isWeekend: false, query: '' }),
      });
      expect(res.status).toBe(200);
      await lists.announcer!.idle();
      expect(JSON.parse(discord.requests[0]!.body).content).toBe(
        '**<@42>** voted for **Bot** on **Top.gg**! (+1)',
      );
    } finally {
      await lists.stopWebhooks();
    }
  });
});
