import { EmbedBuilder, embedLength } from '@discordjs/builders';
import type {
  RESTPostAPIChannelMessageJSONBody,
  RESTPostAPIWebhookWithTokenJSONBody,
} from 'discord-api-types/v10';
import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DiscordSection, DiscordWebhookMessage } from '../src/announcer/discord-message-types.js';
import {
  type AnnounceFormat,
  type AnnounceLink,
  buildDiscordMessage,
  type MessageContext,
} from '../src/announcer/discord-payloads.js';
import { BotlistsError, type UniversalVote, VoteAnnouncer } from '../src/index.js';
import { componentsText, createFakeDiscord, validateComponentsV2 } from './fakes/fake-discord.js';

/** A voter name built to mention, format and link through an announcement. */
const HOSTILE = '**@everyone** __<@&111>__ ~~<@222>~~ ||[click](https://evil.example/x)||';
/** Checked by hand: every Markdown character of the name is backslash-escaped, nothing else changes. */
const HOSTILE_ESCAPED =
  '\\*\\*\\@everyone\\*\\* \\_\\_\\<\\@&111\\>\\_\\_ \\~\\~\\<\\@222\\>\\~\\~ \\|\\|\\[click\\](https\\://evil.example/x)\\|\\|';

const discord = createFakeDiscord();
let base = '';
const hook = (token: string) => `${base}/api/webhooks/123456789/${token}`;

const vote = (extra: Partial<UniversalVote> = {}): UniversalVote => ({
  listId: 'top.gg',
  listName: 'Top.gg',
  voterId: '222222222222222222',
  voterName: 'alice',
  voterAvatar: 'https://cdn.discordapp.com/avatars/2/abc.png',
  botId: '111111111111111111',
  weight: 2,
  weekend: false,
  isTest: false,
  query: {},
  receivedAt: Date.UTC(2026, 10, 21, 12, 0, 0),
  raw: {},
  ...extra,
});

async function deliver(options: ConstructorParameters<typeof VoteAnnouncer>[0], v: UniversalVote) {
  const announcer = new VoteAnnouncer({ minIntervalMs: 0, ...options });
  const errors: Error[] = [];
  const delivered: number[] = [];
  announcer.on('error', (e: Error) => errors.push(e));
  announcer.on('delivered', (e) => delivered.push(e.status));
  announcer.announce(v);
  await announcer.idle();
  const request = discord.requests.at(-1)!;
  return { body: JSON.parse(request.body) as DiscordWebhookMessage, errors, delivered };
}

beforeAll(async () => {
  base = await discord.start();
});
afterAll(() => discord.stop());
beforeEach(() => {
  discord.requests.length = 0;
});

describe('vote values are escaped for Markdown', () => {
  it("the issue's hostile voter name renders literally in all three formats and in the v2 alt text", async () => {
    const v = vote({ voterName: HOSTILE });
    const text = await deliver({ format: 'text', webhooks: [hook('t')], botName: 'MyBot' }, v);
    expect(text.body.content).toBe(`**${HOSTILE_ESCAPED}** voted for **MyBot** on **Top.gg**! (+2)`);
    const embed = await deliver({ format: 'embed', webhooks: [hook('e')], botName: 'MyBot' }, v);
    expect(embed.body.embeds![0]!.description).toBe(
      `**${HOSTILE_ESCAPED}** voted for **MyBot** on **Top.gg**! (+2)`,
    );
    const v2 = await deliver({ format: 'embed-v2', webhooks: [hook('v')], botName: 'MyBot' }, v);
    const section = v2.body.components![0]!.components[0] as DiscordSection;
    expect(section.components[0]!.content).toBe(
      `**${HOSTILE_ESCAPED}** voted for **MyBot** on **Top.gg**! (+2)`,
    );
    expect(section.accessory.description).toBe(HOSTILE_ESCAPED);
    expect([text, embed, v2].flatMap((r) => r.delivered)).toEqual([204, 204, 204]);
  });

  it('a line break in a name cannot open a heading or subtext line, and the bot name is escaped too', () => {
    const message = buildDiscordMessage(
      vote({ voterName: 'x\n# big\r\n-# small' }),
      ctx('text', { botName: '[b](https://e.x)' }),
    );
    expect(message.content).toBe(
      '**x \\# big  \\-\\# small** voted for **\\[b\\](https\\://e.x)** on **Top.gg**! (+2)',
    );
  });
});

describe('link buttons are validated at construction', () => {
  const ok = { label: 'Vote', url: 'https://top.gg/bot/1/vote' };
  it.each([
    [[{ label: 'x'.repeat(81), url: ok.url }], /links\[0\]: label must be 1-80 characters \(got 81\)/],
    [[ok, { label: '', url: ok.url }], /links\[1\]: label must be 1-80 characters \(got 0\)/],
    [[{ label: '   ', url: ok.url }], /label must be 1-80/],
    [[{ label: 'x', url: 'javascript:alert(1)' }], /url must be an http, https or discord URL/],
    [[{ label: 'x', url: 'https://' }], /url must be an http, https or discord URL/],
    [[ok, ok, ok, ok, ok, ok], /at most 5 links/],
  ])('refuses %j', (links, message) => {
    expect(() => new VoteAnnouncer({ links: links as AnnounceLink[] })).toThrow(BotlistsError);
    expect(() => new VoteAnnouncer({ links: links as AnnounceLink[] })).toThrow(message);
  });

  it('accepts 80-character labels and discord:// URLs', () => {
    expect(
      () => new VoteAnnouncer({ links: [{ label: 'x'.repeat(80), url: 'discord://-/channels/1/2' }, ok] }),
    ).not.toThrow();
  });
});

describe('webhook names Discord refuses', () => {
  it('refuses a configured username containing "discord" or "clyde" in any case', () => {
    expect(() => new VoteAnnouncer({ username: 'My DiScOrD votes' })).toThrow(
      'announcer username "My DiScOrD votes" contains "DiScOrD", which Discord refuses in webhook names',
    );
    expect(() => new VoteAnnouncer({ username: 'CLYDE' })).toThrow(/contains "CLYDE"/);
  });

  it('a bot named "Clyde Helper" announces under the webhook\'s own name and says why', async () => {
    const result = await deliver(
      { format: 'text', webhooks: [hook('n')], botToken: 'clyde-token', discordApiBase: `${base}/api/v10` },
      vote(),
    );
    expect(result.delivered).toEqual([204]);
    expect(result.body.username).toBeUndefined();
    expect(result.body.content).toBe('**alice** voted for **Clyde Helper** on **Top.gg**! (+2)');
    expect(result.errors.map((e) => e.message)).toEqual([
      `bot name "Clyde Helper" contains "Clyde", which Discord refuses in webhook names: messages keep the webhook's own name (set announcer.username)`,
    ]);
  });

  it('refuses a blank template', () => {
    expect(() => new VoteAnnouncer({ template: '  ' })).toThrow(/template is blank/);
  });
});

describe('components v2 text budget', () => {
  it('a long template with five labelled links stays within 4000 characters of text and is delivered', async () => {
    const links = Array.from({ length: 5 }, (_, i) => ({ label: `Link ${i}`, url: `https://x.test/${i}` }));
    const result = await deliver(
      { format: 'embed-v2', webhooks: [hook('long')], links, template: 'y'.repeat(5000), botName: 'B' },
      vote({ voterName: 'abcdefghij' }),
    );
    expect(result.delivered).toEqual([204]);
    expect(componentsText(result.body.components!)).toBe(4000);
  });
});

function ctx(format: AnnounceFormat, extra: Partial<MessageContext> = {}): MessageContext {
  return {
    botName: 'MyBot',
    botId: '1',
    format,
    template: '**{voter}** voted for **{bot}** on **{list}**! (+{weight})',
    color: undefined,
    links: [],
    username: undefined,
    avatarUrl: undefined,
    ...extra,
  };
}

/** Names mixing Markdown syntax, mentions, URLs, line breaks and arbitrary Unicode. */
const hostileText = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 300 }),
  fc
    .array(
      fc.constantFrom(
        '**',
        '__',
        '~~',
        '||',
        '`',
        '```',
        '> ',
        '# ',
        '-# ',
        '[x](https://e.x)',
        '<@&1>',
        '@everyone',
        ':a:',
        '\\',
        '\n',
        '1. ',
        'https://e.x',
        ' ',
      ),
      { maxLength: 40 },
    )
    .map((parts) => parts.join('')),
  fc.string({ unit: 'binary', maxLength: 3000 }),
);
const placeholder = fc.constantFrom(
  '{voter}',
  '{voterId}',
  '{list}',
  '{listId}',
  '{bot}',
  '{botId}',
  '{weight}',
  '{weekend}',
  '{unknown}',
);
const template = fc
  .array(fc.oneof(placeholder, hostileText), { minLength: 1, maxLength: 12 })
  .map((parts) => parts.join(''))
  .filter((t) => t.trim().length > 0);
const link = fc.record({
  label: fc.string({ minLength: 1, maxLength: 80 }).filter((l) => l.trim().length > 0),
  url: fc.webUrl(),
});

/** Markdown characters left unescaped by the SDK (after removing every escape pair). */
const UNESCAPED_MARKDOWN = /[*_~`|<>[\]#:@]/;

describe('every payload the announcer can produce is one Discord accepts (property-based)', () => {
  it('text, embed and embed-v2 over hostile names, list names, avatars and templates', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<AnnounceFormat>('text', 'embed', 'embed-v2'),
        template,
        hostileText,
        hostileText,
        fc.option(fc.oneof(fc.webUrl(), hostileText)),
        fc.array(link, { maxLength: 5 }),
        fc.option(fc.integer({ min: 0, max: 0xffffff }), { nil: undefined }),
        (format, tpl, voterName, botName, avatar, links, color) => {
          const v = vote({
            voterName,
            voterAvatar: avatar,
            listName: voterName.slice(0, 500) || 'L',
            weekend: true,
          });
          const message = buildDiscordMessage(
            v,
            ctx(format, { template: tpl, botName, links, color, username: 'Votes' }),
          );
          // Type-checked against discord-api-types: both the webhook and the channel message bodies.
          const webhookBody: RESTPostAPIWebhookWithTokenJSONBody = message;
          const channelBody: RESTPostAPIChannelMessageJSONBody = message;
          expect(webhookBody.allowed_mentions).toEqual({ parse: [] });
          expect(channelBody.flags ?? 0).toBe(format === 'embed-v2' ? 1 << 15 : 0);
          if (format === 'text') {
            expect(message.content!.trim().length).toBeGreaterThan(0);
            expect(message.content!.length).toBeLessThanOrEqual(2000);
          } else if (format === 'embed') {
            const [embed] = message.embeds!;
            // The builders' setters run discord.js's validators (lengths, URL, colour).
            const built = new EmbedBuilder()
              .setTitle(embed!.title)
              .setDescription(embed!.description)
              .setThumbnail(embed!.thumbnail.url)
              .setFooter({ text: embed!.footer.text })
              .setTimestamp(new Date(embed!.timestamp))
              .setColor(embed!.color ?? null);
            expect(embedLength(built.toJSON())).toBeLessThanOrEqual(6000);
          } else {
            expect(message.flags).toBe(1 << 15);
            // Every component rebuilt through the builders' setters (their validators), then Discord's message-wide limits.
            expect(validateComponentsV2(message.components)).toEqual([]);
            expect(componentsText(message.components!)).toBeLessThanOrEqual(4000);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a vote value never leaves Markdown syntax unescaped', () => {
    fc.assert(
      fc.property(hostileText, (name) => {
        const message = buildDiscordMessage(vote({ voterName: name }), ctx('text', { template: '{voter}' }));
        const visible = name.replace(/[\p{Cc}\u2028\u2029]/gu, ' ');
        if (!visible.trim()) return;
        const content = message.content!;
        const shown = content.length < 2000 ? content : content.slice(0, -1);
        expect(shown.replace(/\\[\s\S]/g, '')).not.toMatch(UNESCAPED_MARKDOWN);
        // Clipping may cut inside an escape pair: the unescaped text is a prefix of the name.
        expect(visible.startsWith(shown.replace(/\\([\s\S])/g, '$1').replace(/\\$/, ''))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
