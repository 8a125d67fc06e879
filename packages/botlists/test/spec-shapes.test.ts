/**
 * Every exported function fed exactly the shapes the spec lists: what the SDK adds to a
 * shape (`detail`, `checkedAt`, `listName`, `voterAvatar`, `receivedAt`...) is optional on input.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Botlists,
  ConsoleReport,
  renderTemplate,
  resolveList,
  StatusChecker,
  UniversalParser,
  VoteAnnouncer,
  VoteWebhookServer,
} from '../src/index.js';
import { createFakeDiscord } from './fakes/fake-discord.js';
import { RecordingServer } from './fakes/recording-server.js';

const CHECKED = Date.UTC(2026, 10, 21, 12, 0, 0);

/** StatusBoard as the spec writes it: summary and entries of seven fields, nothing else. */
const specBoard = {
  summary: { live: 1, deprecated: 0, shutdown: 1, unknown: 0 },
  entries: [
    {
      listId: 'top.gg',
      listName: 'Top.gg',
      website: 'https://top.gg',
      state: 'live' as const,
      httpStatus: 200,
      latencyMs: 120,
      lastChecked: CHECKED,
    },
    {
      listId: 'yabl.xyz',
      listName: 'Yet Another | Bot List',
      website: 'https://yabl.xyz',
      state: 'shutdown' as const,
      httpStatus: null,
      latencyMs: null,
      lastChecked: CHECKED - 60_000,
    },
  ],
};

/** UniversalVote as the spec writes it. */
const specVote = {
  listId: 'top.gg',
  voterId: '222222222222222222',
  voterName: 'alice',
  weight: 2,
  weekend: true,
  isTest: false,
  query: { ref: 'readme' },
  raw: { user: '222222222222222222' },
  botId: '111111111111111111',
};

describe('status reports take the spec board', () => {
  it('ConsoleReport.table', () => {
    expect(ConsoleReport.table(specBoard).split('\n')).toEqual([
      'LIST      STATE     HTTP  MS   DETAIL',
      'top.gg    live      200   120  ',
      'yabl.xyz  shutdown  -     -    ',
      '',
      '1 live, 0 deprecated, 1 shutdown, 0 unknown',
    ]);
  });

  it('StatusChecker.toMarkdown (checked at the latest probe when the board has no checkedAt)', () => {
    expect(StatusChecker.toMarkdown(specBoard).split('\n')).toEqual([
      '**1 live, 0 deprecated, 1 shutdown, 0 unknown** (checked 2026-11-21T12:00:00.000Z)',
      '',
      '| List | id | State | HTTP | Latency (ms) | Detail |',
      '|---|---|---|---|---|---|',
      '| Top.gg | `top.gg` | live | 200 | 120 |  |',
      '| Yet Another \\| Bot List | `yabl.xyz` | shutdown | – | – |  |',
    ]);
    expect(StatusChecker.toMarkdown({ summary: specBoard.summary, entries: [] }).split('\n')[0]).toBe(
      '**1 live, 0 deprecated, 1 shutdown, 0 unknown**',
    );
  });

  it('ConsoleReport.issueUrls, from the board or its entries', () => {
    const [url] = ConsoleReport.issueUrls(specBoard, 'me/bot');
    expect(ConsoleReport.issueUrls(specBoard.entries, 'me/bot')).toEqual([url]);
    const params = new URL(url!).searchParams;
    expect(params.get('title')).toBe('List shutdown: yabl.xyz');
    expect(params.get('body')).toBe(
      'Yet Another | Bot List (https://yabl.xyz) probed as **shutdown** on 2026-11-21T11:59:00.000Z.\n\nProposed: remove it from registry-data/lists.json (or mark its status).',
    );
  });
});

describe('votes take the spec UniversalVote', () => {
  const discord = createFakeDiscord();
  let base = '';
  beforeAll(async () => {
    base = await discord.start();
  });
  afterAll(() => discord.stop());

  it('renderTemplate names the list from the registry', () => {
    expect(
      renderTemplate('{voter} voted on {list} ({listId}) +{weight}', specVote, {
        botName: 'Bot',
        botId: '1',
      }),
    ).toBe('alice voted on Top.gg (top.gg) +2');
  });

  it('VoteAnnouncer.announce delivers text, embed and embed-v2 messages', async () => {
    for (const format of ['text', 'embed', 'embed-v2'] as const) {
      const announcer = new VoteAnnouncer({ format, webhooks: [`${base}/api/webhooks/1/${format}`] });
      const errors: Error[] = [];
      const statuses: number[] = [];
      announcer.on('error', (error: Error) => errors.push(error));
      announcer.on('delivered', (event) => statuses.push(event.status));
      announcer.announce(specVote);
      await announcer.idle();
      expect(errors).toEqual([]);
      expect(statuses).toEqual([204]);
    }
    const [text, embed, v2] = discord.requests.map((r) => JSON.parse(r.body));
    expect(text.content).toContain('Top.gg');
    expect(embed.embeds[0].footer).toEqual({ text: 'Top.gg · weekend vote' });
    expect(embed.embeds[0].thumbnail.url).toMatch(
      /^https:\/\/cdn\.discordapp\.com\/embed\/avatars\/\d\.png$/,
    );
    expect(JSON.stringify(v2.components)).toContain('Top.gg · weekend vote');
  });
});

describe('a custom list written with the spec BotlistRecord fields only', () => {
  const fake = new RecordingServer(() => ({ status: 200, body: '{"server_count":12,"votes":3}' }));
  let base = '';
  beforeAll(async () => {
    base = await fake.start();
  });
  afterAll(() => fake.stop());

  const record = () => ({
    id: 'mylist.example',
    name: 'My List',
    website: 'https://mylist.example',
    apiPost: `${base}/bots/:id/stats`,
    postField: 'server_count',
    postMethod: 'POST' as const,
    authHeader: 'Authorization',
    tokenEnvKey: 'LIST_TOKEN_MYLIST_EXAMPLE',
    webhook: { header: 'authorization', voterField: 'user', eventField: 'type' },
    supports: { post: true, get: true, widget: true, webhook: true },
    apiDocs: null,
    apiGet: `${base}/bots/:id`,
    viewBot: 'https://mylist.example/bot/:id',
    widget: 'https://mylist.example/widget/:id.svg',
    shardField: null,
    shardIdField: null,
    shardsArrayField: null,
  });

  it('resolves, posts spec Stats from a BotClientLike, reads the bot, builds URLs and parses votes', async () => {
    const list = record();
    expect(resolveList('https://www.mylist.example/', [list])).toBe(list);
    const bot = new Botlists({
      client: { user: { id: '42' }, guilds: { cache: { size: 12 } } },
      tokens: { 'mylist.example': 'tok' },
      env: {},
      lists: [list],
      disableStatusCheck: true,
    });
    const report = await bot.postStats();
    expect(report.posted.map((r) => r.listId)).toContain('mylist.example');
    const posted = fake.requests.find((r) => r.method === 'POST')!;
    expect([posted.url, posted.headers.authorization, posted.body]).toEqual([
      '/bots/42/stats',
      'tok',
      '{"server_count":12}',
    ]);
    expect(bot.widgetUrl('mylist.example')).toBe('https://mylist.example/widget/42.svg');
    expect(bot.viewBotUrl('mylist.example')).toBe('https://mylist.example/bot/42');
    expect((await bot.fetchBot('mylist.example')).serverCount).toBe(12);

    const vote = UniversalParser.parseVoteWebhook(list, { user: '9', type: 'upvote' });
    expect(vote).toMatchObject({ listId: 'mylist.example', voterId: '9', isTest: false });
    const server = new VoteWebhookServer({ secret: 's', lists: [list] });
    expect(
      server.ingest('mylist.example', '{"user":"9"}', { headers: { authorization: 's' } })?.vote?.voterId,
    ).toBe('9');
  });
});
