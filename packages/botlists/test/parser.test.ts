import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Botlists, BotlistsError, UniversalParser } from '../src/index.js';
import { rebasedOverrides } from './fakes/rebase-lists.js';
import { RecordingServer } from './fakes/recording-server.js';

/** top.gg GET /bots/:id example (docs.top.gg/api/bot). */
const TOPGG_BOT = {
  id: '264811613708746752',
  username: 'Luca',
  avatar: '7edcc4c6fbb0b23762455ca139f0e1c9',
  owners: ['129908908096487424'],
  server_count: 6000,
  points: 1200,
  monthlyPoints: 90,
  certifiedBot: false,
  tags: ['Fun', 'Social'],
  shortdesc: 'Luca is a bot',
  prefix: '-',
  lib: 'discord.js',
  support: 'EYHTgJX',
  invite: 'https://discord.com/oauth2/authorize?client_id=264811613708746752',
};

describe('UniversalParser', () => {
  it('normalises a top.gg bot: numbers or null, never undefined; hashes and codes become URLs', () => {
    const bot = UniversalParser.parseBot('top.gg', TOPGG_BOT, 1000);
    expect(bot).toEqual({
      listId: 'top.gg',
      listName: 'Top.gg',
      id: '264811613708746752',
      name: 'Luca',
      avatar: 'https://cdn.discordapp.com/avatars/264811613708746752/7edcc4c6fbb0b23762455ca139f0e1c9.png',
      owners: ['129908908096487424'],
      serverCount: 6000,
      votes: 1200,
      monthlyVotes: 90,
      certified: false,
      ratings: { average: null, count: null },
      tags: ['Fun', 'Social'],
      description: 'Luca is a bot',
      invite: 'https://discord.com/oauth2/authorize?client_id=264811613708746752',
      prefix: '-',
      library: 'discord.js',
      github: null,
      supportServer: 'https://discord.gg/EYHTgJX',
      raw: TOPGG_BOT,
      fetchedAt: 1000,
    });
  });

  it('reads nested paths and wrappers in priority order', () => {
    const bot = UniversalParser.parseBot('discordextremelist.xyz', {
      bot: {
        id: '5',
        name: 'Del',
        stats: { server_count: '321' },
        votes: { total: 7, monthly: 2 },
        owner: { id: '9' },
        reviews: { averageScore: 4.5, count: 10 },
      },
    });
    expect(bot).toMatchObject({
      id: '5',
      name: 'Del',
      serverCount: 321,
      votes: 7,
      monthlyVotes: 2,
      owners: ['9'],
      ratings: { average: 4.5, count: 10 },
    });
    const empty = UniversalParser.parseBot('yabl', {});
    for (const value of Object.values(empty)) expect(value).not.toBeUndefined();
    expect(empty.serverCount).toBeNull();
  });

  it("reads dlist.space's documented bot shape", () => {
    const answer = {
      status: 200,
      data: {
        bot_id: '123456789012345678',
        name: 'MyBot',
        status: 'approved',
        certified: false,
        info: { prefix: '!', tags: ['Moderation', 'Utility'] },
        stats: { votes: 42, servers_count: 150, users_count: 5000 },
        descriptions: { short: 'A helpful moderation bot.', detailed: '...' },
      },
    };
    expect(UniversalParser.parseBot('dlist.space', answer)).toMatchObject({
      id: '123456789012345678',
      name: 'MyBot',
      certified: false,
      prefix: '!',
      tags: ['Moderation', 'Utility'],
      votes: 42,
      serverCount: 150,
      description: 'A helpful moderation bot.',
    });
  });

  it('parses lists of bots and vote counts', () => {
    expect(
      UniversalParser.parseBots('top.gg', { results: [TOPGG_BOT, { id: '2', username: 'B' }] }).map(
        (b) => b.name,
      ),
    ).toEqual(['Luca', 'B']);
    expect(UniversalParser.parseVotes('top.gg', TOPGG_BOT)).toBe(1200);
    expect(UniversalParser.parseVotes('top.gg', { name: 'x' })).toBeNull();
  });

  it('parses vote bodies of each list that sends them', () => {
    const cases: [string, unknown, Partial<Record<string, unknown>>][] = [
      [
        'discordbotlist.com',
        { admin: false, avatar: 'hash', username: 'dbl-user', id: '10' },
        { voterId: '10', voterName: 'dbl-user' },
      ],
      ['botlist.me', { bot: '1', user: '11', type: 'Upvote' }, { voterId: '11', botId: '1', isTest: false }],
      ['botlist.me', { bot: '1', user: '11', type: 'Test' }, { isTest: true }],
      ['voidbots.net', { bot: '1', user: '12', type: 'vote' }, { voterId: '12' }],
      ['discords.com', { user: '13', bot: '1', votes: { totalVotes: 3 }, type: 'vote' }, { voterId: '13' }],
      [
        'dlist.space',
        { user_id: '14', username: 'sp', avatar: 'h', weekend: true, test: false },
        { voterId: '14', weekend: true, weight: 1 },
      ],
      ['radarcord.net', { user: '15', type: 'vote', bot: '1' }, { voterId: '15' }],
      [
        'discordforge.org',
        { id: 'v1', type: 'vote.created', bot_id: '1', data: { voter_id: '16' } },
        { voterId: '16', botId: '1' },
      ],
      ['topbot.gg', { event: 'vote', flagged: false, user: '17' }, { voterId: '17' }],
      [
        'top.gg',
        { bot: '1', user: '18', type: 'test', isWeekend: false, query: '' },
        { isTest: true, query: {}, weight: 1 },
      ],
    ];
    for (const [list, body, expected] of cases) {
      expect(UniversalParser.parseVoteWebhook(list, body), list).toMatchObject(expected);
    }
    expect(() => UniversalParser.parseVoteWebhook('top.gg', { type: 'upvote' })).toThrow(BotlistsError);
  });
});

describe('reading APIs against a fake list', () => {
  const fake = new RecordingServer((req) => {
    if (req.url.startsWith('/top.gg/api/bots/264811613708746752/check'))
      return { status: 200, body: '{"voted":1}' };
    if (req.url.startsWith('/top.gg/api/bots?search='))
      return { status: 200, body: JSON.stringify({ results: [TOPGG_BOT], count: 1 }) };
    if (req.url === '/top.gg/api/bots/264811613708746752')
      return { status: 200, body: JSON.stringify(TOPGG_BOT) };
    return { status: 404, body: '{"error":"Not found"}' };
  });
  let client: Botlists;
  beforeAll(async () => {
    const base = await fake.start();
    client = new Botlists({
      botId: '264811613708746752',
      tokens: { 'top.gg': 'read-token' },
      env: {},
      lists: rebasedOverrides(base),
      legacyApi: ['top.gg'],
    });
  });
  afterAll(() => fake.stop());

  it('fetchBot, fetchVotes, hasVoted and searchBots send the token top.gg needs and normalise the answer', async () => {
    expect((await client.fetchBot('topgg')).serverCount).toBe(6000);
    expect(await client.fetchVotes('top.gg')).toBe(1200);
    expect(await client.hasVoted('top.gg', '42')).toBe(true);
    const found = await client.searchBots('top.gg', 'lu ca', 5);
    expect(found.map((b) => b.name)).toEqual(['Luca']);
    expect(fake.requests.map((r) => r.url)).toEqual([
      '/top.gg/api/bots/264811613708746752',
      '/top.gg/api/bots/264811613708746752',
      '/top.gg/api/bots/264811613708746752/check?userId=42',
      '/top.gg/api/bots?search=lu%20ca&limit=5',
    ]);
    expect(fake.requests.every((r) => r.headers.authorization === 'read-token')).toBe(true);
  });

  it('throws BotlistsError with listId and status on an error answer; null where a list has no such API', async () => {
    const error = await client.fetchBot('top.gg', '1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BotlistsError);
    expect(error).toMatchObject({ listId: 'top.gg', status: 404 });
    expect(await client.fetchVotes('yabl.xyz')).toBeNull();
    expect(await client.hasVoted('yabl.xyz', '1')).toBeNull();
    await expect(client.searchBots('yabl.xyz', 'x')).rejects.toThrow(/no search API/);
  });

  it('builds widget and listing URLs', () => {
    expect(client.widgetUrl('top.gg')).toBe('https://top.gg/api/widget/264811613708746752.svg');
    expect(client.viewBotUrl('dbl', '5')).toBe('https://top.gg/bot/5');
    expect(client.widgetUrl('yabl.xyz')).toBeNull();
  });
});
