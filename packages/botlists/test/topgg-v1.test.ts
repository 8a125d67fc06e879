import { SlashCommandBuilder } from '@discordjs/builders';
import type { RESTPutAPIApplicationCommandsJSONBody } from 'discord-api-types/v10';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { Botlists } from '../src/index.js';
import { RecordingServer, type ScriptedReply } from './fakes/recording-server.js';

const BOT = '123456789012345678';
/** getSelf's body as @top-gg/sdk 4's example documents it (Top-gg-Community/node-sdk src/structs/Api.ts). */
const PROJECT = {
  id: '218109768489992192',
  name: 'Miki',
  type: 'bot',
  platform: 'discord',
  headline: 'A great bot with tons of features!',
  tags: ['anime', 'fun'],
  votes: 1120,
  votes_total: 313389,
  review_score: 4.38,
  review_count: 62245,
};
const VOTE = { created_at: '2026-11-21T12:00:00.000Z', expires_at: '2026-11-22T00:00:00.000Z', weight: 2 };
const listed = (user: string, at: string) => ({
  user_id: `tg${user}`,
  platform_id: user,
  created_at: at,
  expires_at: at,
  weight: 1,
});

const topgg = new RecordingServer((req): ScriptedReply => {
  const url = new URL(req.url, 'http://x');
  const route = `${req.method} ${url.pathname}`;
  if (route === 'GET /api/v1/projects/@me') return { status: 200, body: JSON.stringify(PROJECT) };
  if (
    route === 'PATCH /api/v1/projects/@me' ||
    route === 'PUT /api/v1/projects/@me/commands' ||
    route === 'PATCH /api/v1/projects/@me/metrics'
  )
    return { status: 204 };
  if (route === 'GET /api/v1/projects/@me/votes/661200758510977084')
    return { status: 200, body: JSON.stringify(VOTE) };
  if (route === 'GET /api/v1/projects/@me/votes/555')
    return { status: 200, body: JSON.stringify({ ...VOTE, expires_at: '2999-01-01T00:00:00.000Z' }) };
  if (route === 'GET /api/v1/projects/@me/votes') {
    if (url.searchParams.get('startDate'))
      return {
        status: 200,
        body: JSON.stringify({
          data: [listed('1', '2026-11-20T10:00:00.000Z'), listed('2', '2026-11-20T11:00:00.000Z')],
          cursor: 'page-2',
        }),
      };
    if (url.searchParams.get('cursor') === 'page-2')
      return {
        status: 200,
        body: JSON.stringify({ data: [listed('3', '2026-11-20T12:00:00.000Z')], cursor: 'page-3' }),
      };
    return { status: 200, body: JSON.stringify({ data: [], cursor: '' }) };
  }
  if (route === `POST /dbl/api/v1/bots/${BOT}/commands`) return { status: 200, body: '{}' };
  return { status: 404, body: '{"message":"Not Found"}' };
});
let base = '';

function client(extra: ConstructorParameters<typeof Botlists>[0] = {}) {
  return new Botlists({
    botId: BOT,
    disableStatusCheck: true,
    postSpacingMs: 0,
    tokens: { 'top.gg': 'tg-token', 'discordbotlist.com': 'dbl-token' },
    lists: [
      { id: 'top.gg', apiBase: `${base}/api/v1` },
      { id: 'discordbotlist.com', commands: { url: `${base}/dbl/api/v1/bots/:id/commands`, method: 'POST' } },
    ],
    fetchOptions: { retries: 0 },
    env: {},
    ...extra,
  });
}

beforeAll(async () => {
  base = await topgg.start();
});
afterAll(() => topgg.stop());
beforeEach(() => {
  topgg.requests.length = 0;
});

describe('top.gg API v1', () => {
  it('getSelf reads GET /projects/@me with a Bearer token', async () => {
    expect(await client().topgg.getSelf()).toEqual({
      id: '218109768489992192',
      name: 'Miki',
      platform: 'discord',
      type: 'bot',
      headline: 'A great bot with tons of features!',
      tags: ['anime', 'fun'],
      votes: { current: 1120, total: 313389 },
      review: { score: 4.38, count: 62245 },
    });
    expect(topgg.requests[0]).toMatchObject({ method: 'GET', url: '/api/v1/projects/@me' });
    expect(topgg.requests[0]!.headers.authorization).toBe('Bearer tg-token');
  });

  it('editSelf sends PATCH /projects/@me with headline and page_content per locale', async () => {
    await client().topgg.editSelf({ headline: { en: 'Hi', fr: 'Salut' }, content: { en: '# Welcome' } });
    expect(topgg.requests[0]).toMatchObject({ method: 'PATCH', url: '/api/v1/projects/@me' });
    expect(topgg.requests[0]!.headers['content-type']).toBe('application/json');
    expect(topgg.requests[0]!.body).toBe(
      '{"headline":{"en":"Hi","fr":"Salut"},"page_content":{"en":"# Welcome"}}',
    );
    await expect(client().topgg.editSelf({})).rejects.toThrow('editSelf: give a headline, content or both');
    await expect(client().topgg.editSelf({ headline: {} })).rejects.toThrow(
      /headline must map at least one locale/,
    );
    expect(topgg.requests).toHaveLength(1);
  });

  it('getVote by Discord id or top.gg id; null when top.gg answers 404', async () => {
    const api = client().topgg;
    expect(await api.getVote('661200758510977084')).toEqual({
      votedAt: new Date(VOTE.created_at),
      expiresAt: new Date(VOTE.expires_at),
      weight: 2,
    });
    expect(await api.getVote('8226924471638491136', 'topgg')).toBeNull();
    expect(topgg.requests.map((r) => r.url)).toEqual([
      '/api/v1/projects/@me/votes/661200758510977084?source=discord',
      '/api/v1/projects/@me/votes/8226924471638491136?source=topgg',
    ]);
  });

  it('hasVoted on top.gg asks v1 getVote: true while the vote runs, false once expired or without one', async () => {
    const lists = client();
    expect(await lists.hasVoted('top.gg', '555')).toBe(true);
    expect(await lists.hasVoted('top.gg', '661200758510977084')).toBe(false); // expired 2026-11-22
    expect(await lists.hasVoted('top.gg', '1')).toBe(false); // 404: no vote in the last 12 h
    expect(topgg.requests.map((r) => r.url)).toEqual([
      '/api/v1/projects/@me/votes/555?source=discord',
      '/api/v1/projects/@me/votes/661200758510977084?source=discord',
      '/api/v1/projects/@me/votes/1?source=discord',
    ]);
    expect(topgg.requests.every((r) => r.headers.authorization === 'Bearer tg-token')).toBe(true);
  });

  it('getVotes pages with startDate then the cursor', async () => {
    const first = await client().topgg.getVotes(new Date('2026-11-20T00:00:00.000Z'));
    expect(first.votes.map((v) => [v.userId, v.platformId, v.votedAt.toISOString()])).toEqual([
      ['tg1', '1', '2026-11-20T10:00:00.000Z'],
      ['tg2', '2', '2026-11-20T11:00:00.000Z'],
    ]);
    const second = await first.next();
    expect(second.votes.map((v) => v.platformId)).toEqual(['3']);
    const last = await second.next();
    expect(last).toMatchObject({ votes: [], cursor: null });
    await expect(last.next()).rejects.toThrow('getVotes: no next page');
    expect(topgg.requests.map((r) => r.url)).toEqual([
      '/api/v1/projects/@me/votes?startDate=2026-11-20T00%3A00%3A00.000Z',
      '/api/v1/projects/@me/votes?cursor=page-2',
      '/api/v1/projects/@me/votes?cursor=page-3',
    ]);
  });

  it('one apiBase override moves every v1 route: the client, the metrics post and the commands', async () => {
    const lists = client();
    await lists.topgg.getSelf();
    expect((await lists.postStats({ serverCount: 5 }, { only: ['top.gg'] })).posted).toHaveLength(1);
    expect((await lists.postCommands([{ name: 'vote' }], { only: ['top.gg'] })).posted).toHaveLength(1);
    expect(topgg.requests.map((r) => `${r.method} ${r.url} ${r.headers.authorization}`)).toEqual([
      'GET /api/v1/projects/@me Bearer tg-token',
      'PATCH /api/v1/projects/@me/metrics Bearer tg-token',
      'PUT /api/v1/projects/@me/commands Bearer tg-token',
    ]);
  });

  it('without a top.gg token every v1 call is a clear error before any request', async () => {
    const api = client({ tokens: {} }).topgg;
    await expect(api.getSelf()).rejects.toThrow('top.gg getSelf needs a token');
    expect(topgg.requests).toHaveLength(0);
  });
});

describe('postCommands fans out like postStats', () => {
  const commands: RESTPutAPIApplicationCommandsJSONBody = [
    new SlashCommandBuilder().setName('vote').setDescription('Vote for the bot').toJSON(),
    new SlashCommandBuilder().setName('help').setDescription('List commands').toJSON(),
  ];

  it('PUTs the list to top.gg v1 and POSTs it to discordbotlist.com, each with its auth', async () => {
    const report = await client().postCommands(commands);
    expect(report.posted.map((r) => [r.listId, r.status])).toEqual([
      ['top.gg', 204],
      ['discordbotlist.com', 200],
    ]);
    expect(report.commands).toBe(2);
    const [put, post] = topgg.requests;
    expect([put!.method, put!.url, put!.headers.authorization]).toEqual([
      'PUT',
      '/api/v1/projects/@me/commands',
      'Bearer tg-token',
    ]);
    expect([post!.method, post!.url, post!.headers.authorization]).toEqual([
      'POST',
      `/dbl/api/v1/bots/${BOT}/commands`,
      'Bot dbl-token',
    ]);
    expect(JSON.parse(put!.body)).toEqual(commands);
    expect(post!.body).toBe(put!.body);
  });

  it('honours only/skip, skips lists without a token and refuses an empty or nameless list', async () => {
    const only = await client({ tokens: { 'top.gg': 'tg-token' } }).postCommands(commands, {
      skip: ['top.gg'],
    });
    expect(only.skipped).toEqual([
      { listId: 'discordbotlist.com', outcome: 'skipped', status: null, reason: 'no token' },
    ]);
    await expect(client().postCommands([])).rejects.toThrow(
      'postCommands: give at least one application command',
    );
    await expect(client().postCommands([{ description: 'x' } as never])).rejects.toThrow(
      'postCommands: commands[0] needs a name (pass command.toJSON())',
    );
    await expect(client().postCommands(commands, { only: ['nope'] })).rejects.toThrow(
      'unknown list id "nope"',
    );
    expect(topgg.requests).toHaveLength(0);
  });
});

describe('ledger backfill from v1 votes', () => {
  it('records every page of votes since a date, once', async () => {
    const lists = client({ ledger: { reminderCheckMs: 0 } });
    expect(await lists.backfillLedger(new Date('2026-11-20T00:00:00.000Z'))).toBe(3);
    expect(await lists.backfillLedger(new Date('2026-11-20T00:00:00.000Z'))).toBe(0);
    expect((await lists.ledger!.votes()).map((v) => [v.userId, v.at.toISOString()])).toEqual([
      ['1', '2026-11-20T10:00:00.000Z'],
      ['2', '2026-11-20T11:00:00.000Z'],
      ['3', '2026-11-20T12:00:00.000Z'],
    ]);
    await lists.ledger!.close();
  });

  it("backfilled votes carry top.gg's configured name, as webhook votes do", async () => {
    const lists = client({
      lists: [{ id: 'top.gg', apiBase: `${base}/api/v1`, name: 'Top.gg (staging)' }],
      ledger: { reminderCheckMs: 0 },
    });
    const record = vi.spyOn(lists.ledger!, 'record');
    expect(await lists.backfillLedger(new Date('2026-11-20T00:00:00.000Z'))).toBe(3);
    expect(record.mock.calls.map(([vote]) => [vote.listId, vote.listName])).toEqual([
      ['top.gg', 'Top.gg (staging)'],
      ['top.gg', 'Top.gg (staging)'],
      ['top.gg', 'Top.gg (staging)'],
    ]);
    await lists.ledger!.close();
  });
});
