import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Botlists, BotlistsError, lists, resolveList, resolveTokens, UniversalParser } from '../src/index.js';
import { authValue } from '../src/registry/tokens.js';

const RECORD_FIELDS = [
  'id',
  'name',
  'website',
  'apiPost',
  'postField',
  'postMethod',
  'authHeader',
  'tokenEnvKey',
  'webhook',
  'supports',
  'apiDocs',
  'apiGet',
  'viewBot',
  'widget',
  'shardField',
  'shardIdField',
  'shardsArrayField',
];
/** Defunct per BotBlock (defunct: 1) or purged by dbots.js: must never be in the registry. */
const DEAD = [
  'bladelist.gg',
  'wonderbotlist.com',
  'motiondevelopment.top',
  'blist.xyz',
  'bots.discordlabs.org',
  'discordlist.space',
  'fateslist.xyz',
  'topcord.xyz',
  'space-bot-list.xyz',
  'discord.boats',
  'discordbotlist.xyz',
  'discord.services',
  'botsdatabase.com',
  'botlist.co',
  'discord-botlist.eu',
];

describe('registry', () => {
  it('holds at least the 23 live lists, each record complete, no dead list', () => {
    expect(lists.length).toBeGreaterThanOrEqual(23);
    expect(new Set(lists.map((l) => l.id)).size).toBe(lists.length);
    for (const list of lists) {
      for (const field of RECORD_FIELDS)
        expect(list[field as keyof typeof list], `${list.id}.${field}`).not.toBeUndefined();
      expect(Object.keys(list.supports).sort()).toEqual(['get', 'post', 'webhook', 'widget']);
      expect(Object.keys(list.webhook).sort()).toEqual(['eventField', 'header', 'voterField']);
      expect(list.supports.post).toBe(list.apiPost !== null);
      if (list.apiPost) expect(list.apiPost).toMatch(/^https:\/\//);
      expect(list.tokenEnvKey).toMatch(/^LIST_TOKEN_[A-Z0-9_]+$/);
    }
    for (const dead of DEAD) expect(lists.find((l) => l.id === dead)).toBeUndefined();
  });

  it('generated file and README table are up to date with registry-data/lists.json', () => {
    const script = fileURLToPath(new URL('../scripts/generate-lists.mjs', import.meta.url));
    expect(() => execFileSync(process.execPath, [script, '--check'], { stdio: 'pipe' })).not.toThrow();
  });
});

describe('resolveList', () => {
  it.each([
    ['top.gg', 'top.gg'],
    ['TOP.GG', 'top.gg'],
    ['topgg', 'top.gg'],
    ['dbl', 'top.gg'],
    ['https://www.top.gg/bot/1234', 'top.gg'],
    ['dlist.gg', 'discordlist.gg'],
    ['infinitybots', 'omniplex.gg'],
    ['botsfordiscord.com', 'discords.com'],
    ['yabl', 'yabl.xyz'],
    ['https://discords.com/bots', 'discords.com'],
  ])('%s → %s', (query, id) => {
    expect(resolveList(query)?.id).toBe(id);
  });

  it('returns null for unknown ids and throws on ambiguous ones', () => {
    expect(resolveList('no-such-list.example')).toBeNull();
    expect(resolveList('')).toBeNull();
    expect(() => resolveList('discord')).toThrow(BotlistsError);
    expect(() => resolveList('discord')).toThrow(/ambiguous: .*discord\.bots\.gg/);
  });
});

describe('tokens', () => {
  it('reads literal and portable env names, ignores blanks, lets the option (ids or aliases) win', () => {
    const tokens = resolveTokens(
      lists,
      { topgg: 'opt' },
      {
        'LIST_TOKEN_TOP.GG': 'env-literal',
        LIST_TOKEN_YABL_XYZ: 'env-portable',
        LIST_TOKEN_DISFORGE_COM: '   ',
      },
    );
    expect(Object.fromEntries(tokens)).toEqual({ 'top.gg': 'opt', 'yabl.xyz': 'env-portable' });
  });

  it('writes an auth scheme prefix once', () => {
    expect(authValue('abc', 'Bearer')).toBe('Bearer abc');
    expect(authValue('Bearer abc', 'Bearer')).toBe('Bearer abc');
    expect(authValue('abc', 'Bot')).toBe('Bot abc');
    expect(authValue('abc')).toBe('abc');
  });
});

describe('typed events', () => {
  it('gives listeners the payload type of their event', () => {
    const lists = new Botlists({ env: {} });
    const ids: string[] = [];
    // Compile-time check: `vote.voterId` only type-checks because 'vote' is typed UniversalVote.
    lists.on('vote', (vote) => ids.push(vote.voterId));
    lists.emit('vote', UniversalParser.parseVoteWebhook('top.gg', { user: '9', bot: '1', type: 'upvote' }));
    expect(ids).toEqual(['9']);
  });
});
