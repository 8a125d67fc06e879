import { createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import {
  Botlists,
  lists as builtInLists,
  type LedgerStore,
  MemoryLedgerStore,
  PostgresLedgerStore,
  type ReminderEvent,
  SqliteLedgerStore,
  type UniversalVote,
  VoteLedger,
} from '../src/index.js';

const SECRET = 'whs_ledger_secret_0123456789';
const HOUR = 3_600_000;
/** Saturday 2026-11-21 12:00:00 UTC. */
const T0 = Date.UTC(2026, 10, 21, 12, 0, 0);
const PG_URL = 'postgres://postgres@127.0.0.1:5432/test';
/** One schema per run, so parallel runs and earlier runs never share rows. */
const PG_SCHEMA = `botlists_ledger_${process.pid}_${randomBytes(4).toString('hex')}`;

async function postgresReachable(): Promise<boolean> {
  const pg = (await import('pg')).default;
  const client = new pg.Client({ connectionString: PG_URL });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch (error) {
    if (process.env.CI === 'true') throw error;
    console.warn(`PostgreSQL ledger tests skipped: ${(error as Error).message}`);
    return false;
  }
}
const hasPostgres = await postgresReachable();
const tmp = mkdtempSync(join(tmpdir(), 'botlists-ledger-'));
let storeCount = 0;

const STORES: [string, () => LedgerStore][] = [
  ['memory', () => new MemoryLedgerStore()],
  ['SQLite', () => new SqliteLedgerStore({ filename: join(tmp, `ledger-${storeCount++}.db`) })],
];
if (hasPostgres)
  STORES.push([
    'PostgreSQL',
    () =>
      new PostgresLedgerStore({
        connectionString: PG_URL,
        schema: PG_SCHEMA,
        tablePrefix: `t${storeCount++}_`,
      }),
  ]);

/** Two handles on one store, as two bot processes on one database hold them. */
const SHARED: [string, () => Promise<[LedgerStore, LedgerStore]>][] = [
  [
    'memory',
    async () => {
      const store = new MemoryLedgerStore();
      return [store, store];
    },
  ],
  [
    'SQLite',
    async () => {
      const filename = join(tmp, `ledger-${storeCount++}.db`);
      return [new SqliteLedgerStore({ filename }), new SqliteLedgerStore({ filename })];
    },
  ],
];
if (hasPostgres)
  SHARED.push([
    'PostgreSQL',
    async () => {
      const options = { connectionString: PG_URL, schema: PG_SCHEMA, tablePrefix: `t${storeCount++}_` };
      return [new PostgresLedgerStore(options), new PostgresLedgerStore(options)];
    },
  ]);

const clients: Botlists[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) {
    await client.stopWebhooks();
    await client.ledger?.close();
  }
});
afterAll(async () => {
  rmSync(tmp, { recursive: true, force: true });
  if (!hasPostgres) return;
  const pg = (await import('pg')).default;
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS "${PG_SCHEMA}" CASCADE`);
  await client.query(`DROP SCHEMA IF EXISTS "${PG_SCHEMA}_fresh" CASCADE`);
  await client.end();
});

const vote = (extra: Partial<UniversalVote> = {}): UniversalVote => ({
  listId: 'top.gg',
  listName: 'Top.gg',
  voterId: '222222222222222222',
  voterName: 'alice',
  voterAvatar: null,
  botId: '111111111111111111',
  weight: 1,
  weekend: false,
  isTest: false,
  query: {},
  receivedAt: T0,
  raw: {},
  ...extra,
});

const v1Header = (t: number, raw: string) =>
  `t=${t},v1=${createHmac('sha256', SECRET).update(`${t}.${raw}`).digest('hex')}`;

describe.each(STORES)('vote ledger on the %s store', (_name, makeStore) => {
  function client(now = () => T0) {
    const lists = new Botlists({
      botId: '111111111111111111',
      disableStatusCheck: true,
      now,
      webhook: { host: '127.0.0.1', port: 0, secret: SECRET },
      ledger: { store: makeStore(), reminderCheckMs: 0 },
    });
    clients.push(lists);
    return lists;
  }

  it('records each vote delivered over HTTP once, across retries and replays', async () => {
    const lists = client();
    const address = await lists.startWebhooks();
    const post = (body: string, headers: Record<string, string>) =>
      fetch(`${address}/top.gg`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body,
      });
    const v0 = JSON.stringify({
      bot: '111111111111111111',
      user: '333333333333333333',
      type: 'upvote',
      isWeekend: false,
    });
    // top.gg v0 retries the same body (unsigned: the server emits it each time).
    for (let i = 0; i < 3; i++) expect((await post(v0, { authorization: SECRET })).status).toBe(200);
    // top.gg v1 redelivers vote.create with a new signature timestamp: same data.id.
    const v1 = JSON.stringify({
      type: 'vote.create',
      data: {
        id: '808',
        weight: 2,
        created_at: '2026-11-21T12:00:00.000Z',
        expires_at: '2026-11-22T00:00:00.000Z',
        project: { id: '1', type: 'bot', platform: 'discord', platform_id: '111111111111111111' },
        user: { id: '9', platform_id: '444444444444444444', name: 'bob', avatar_url: null },
        query: {},
      },
    });
    const t = Math.floor(T0 / 1000);
    expect((await post(v1, { 'x-topgg-signature': v1Header(t, v1) })).status).toBe(200);
    expect((await post(v1, { 'x-topgg-signature': v1Header(t + 1, v1) })).status).toBe(200);
    // A dashboard test is never recorded.
    const test = JSON.stringify({ bot: '111111111111111111', user: '555555555555555555', type: 'test' });
    expect((await post(test, { authorization: SECRET })).status).toBe(200);
    await lists.ledger!.idle();
    const votes = await lists.ledger!.votes();
    expect(votes.map((v) => [v.list, v.userId, v.weight, v.streak])).toEqual([
      ['top.gg', '333333333333333333', 1, 1],
      ['top.gg', '444444444444444444', 2, 1],
    ]);
  });

  it('counts streaks, answers canVoteAgainAt from the 12 h cooldown, and filters votes', async () => {
    let now = T0;
    const lists = client(() => now);
    const ledger = lists.ledger!;
    expect(await ledger.record(vote({ receivedAt: T0 }))).toBe(true);
    expect(await ledger.record(vote({ receivedAt: T0 + 11 * HOUR }))).toBe(false); // inside the cooldown: a copy
    expect(await ledger.record(vote({ receivedAt: T0 + 13 * HOUR }))).toBe(true);
    expect(await ledger.record(vote({ receivedAt: T0 + 30 * HOUR }))).toBe(true);
    expect(await ledger.record(vote({ receivedAt: T0 + 80 * HOUR }))).toBe(true); // 50 h gap: streak restarts
    expect(await ledger.record(vote({ voterId: '9', listId: 'discordbotlist.com', receivedAt: T0 }))).toBe(
      true,
    );
    now = T0 + 81 * HOUR;
    expect((await ledger.votes({ userId: '222222222222222222' })).map((v) => v.streak)).toEqual([1, 2, 3, 1]);
    expect(await ledger.streak('top.gg', '222222222222222222')).toBe(1);
    expect(await ledger.canVoteAgainAt('top.gg', '222222222222222222')).toEqual(new Date(T0 + 92 * HOUR));
    expect(await ledger.canVoteAgainAt('top.gg', 'never-voted')).toBeNull();
    // discordbotlist.com documents no cooldown in the registry.
    expect(await ledger.canVoteAgainAt('discordbotlist.com', '9')).toBeNull();
    expect((await ledger.votes({ since: new Date(T0 + 20 * HOUR) })).map((v) => v.at.getTime())).toEqual([
      T0 + 30 * HOUR,
      T0 + 80 * HOUR,
    ]);
    expect((await ledger.votes({ list: 'discordbotlist.com' })).map((v) => v.userId)).toEqual(['9']);
  });

  it('older votes (a backfill) are stored once and never take the key of the next new vote', async () => {
    const ledger = client().ledger!;
    expect(await ledger.record(vote({ receivedAt: T0 }))).toBe(true);
    expect(await ledger.record(vote({ receivedAt: T0 - 2000 }))).toBe(false); // the same vote, listed earlier
    expect(await ledger.record(vote({ receivedAt: T0 - 20 * HOUR }))).toBe(true);
    expect(await ledger.record(vote({ receivedAt: T0 - 20 * HOUR + 60_000 }))).toBe(false);
    expect(await ledger.record(vote({ receivedAt: T0 + 13 * HOUR }))).toBe(true);
    expect((await ledger.votes()).map((v) => [v.at.getTime() - T0, v.streak])).toEqual([
      [-20 * HOUR, 1],
      [0, 1],
      [13 * HOUR, 2],
    ]);
  });

  it('a vote backfilled without an id and its delivery with top.gg v1 data.id are stored once, in either order', async () => {
    const ledger = client().ledger!;
    const delivered = (voterId: string, at: number) =>
      vote({ voterId, receivedAt: at, raw: { type: 'vote.create', data: { id: `v-${voterId}` } } });
    const backfilled = (voterId: string, at: number) => vote({ voterId, receivedAt: at, raw: {} });
    // Backfill first, then the webhook's (re)delivery of the same vote a little later.
    expect(await ledger.record(backfilled('1', T0))).toBe(true);
    expect(await ledger.record(delivered('1', T0 + 5000))).toBe(false);
    // Delivery first, then the backfill listing it at its creation time.
    expect(await ledger.record(delivered('2', T0 + 5000))).toBe(true);
    expect(await ledger.record(backfilled('2', T0))).toBe(false);
    // A late redelivery older than a backfilled vote is a copy too.
    expect(await ledger.record(backfilled('3', T0 + 5000))).toBe(true);
    expect(await ledger.record(delivered('3', T0))).toBe(false);
    expect((await ledger.votes()).map((v) => v.userId).sort()).toEqual(['1', '2', '3']);
  });

  it('lists without a cooldown or vote id treat a second vote within an hour as a copy', async () => {
    const ledger = client().ledger!;
    const dbl = (at: number) => vote({ listId: 'discordbotlist.com', receivedAt: at });
    expect(await ledger.record(dbl(T0))).toBe(true);
    expect(await ledger.record(dbl(T0 + HOUR - 1))).toBe(false);
    expect(await ledger.record(dbl(T0 + HOUR))).toBe(true);
  });

  it('two copies of a vote recorded at the same time are stored once', async () => {
    const ledger = client().ledger!;
    const results = await Promise.all([ledger.record(vote()), ledger.record(vote()), ledger.record(vote())]);
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await ledger.votes()).toHaveLength(1);
  });

  it('emits one reminder per vote to opted-in voters once the cooldown has passed', async () => {
    let now = T0;
    const lists = client(() => now);
    const ledger = lists.ledger!;
    const reminders: ReminderEvent[] = [];
    lists.on('reminder', (event) => reminders.push(event));
    await ledger.record(vote({ voterId: 'in' }));
    await ledger.record(vote({ voterId: 'out' }));
    await ledger.remind('in');
    await ledger.remind('out');
    await ledger.remind('out', false);
    now = T0 + 12 * HOUR - 1;
    expect(await ledger.checkReminders()).toEqual([]);
    now = T0 + 12 * HOUR;
    await ledger.checkReminders();
    await ledger.checkReminders();
    expect(reminders).toEqual([{ list: 'top.gg', userId: 'in', at: new Date(T0 + 12 * HOUR) }]);
  });

  it('exports RFC 4180 CSV that spreadsheets cannot run as formulas', async () => {
    const ledger = client().ledger!;
    await ledger.record(vote({ voterId: '1', voterName: '=HYPERLINK("https://evil.example","x")' }));
    await ledger.record(vote({ voterId: '2', voterName: '+1, "quoted"\r\nline', receivedAt: T0 + 1 }));
    await ledger.record(vote({ voterId: '3', voterName: '@SUM(A1)', receivedAt: T0 + 2 }));
    await ledger.record(vote({ voterId: '4', voterName: '-2', receivedAt: T0 + 3 }));
    await ledger.record(vote({ voterId: '5', voterName: null, receivedAt: T0 + 4 }));
    expect(await ledger.toCsv()).toBe(
      'list,user_id,user_name,weight,at,streak\r\n' +
        `top.gg,1,"'=HYPERLINK(""https://evil.example"",""x"")",1,2026-11-21T12:00:00.000Z,1\r\n` +
        `top.gg,2,"'+1, ""quoted""\r\nline",1,2026-11-21T12:00:00.001Z,1\r\n` +
        `top.gg,3,'@SUM(A1),1,2026-11-21T12:00:00.002Z,1\r\n` +
        `top.gg,4,'-2,1,2026-11-21T12:00:00.003Z,1\r\n` +
        'top.gg,5,,1,2026-11-21T12:00:00.004Z,1\r\n',
    );
  });
});

describe.each(SHARED)('two ledgers on one %s store (two bot processes)', (_name, openTwice) => {
  it('remind each voter once when both check at the same time: the store claims each vote once', async () => {
    const [first, second] = await openTwice();
    const ledgers = [first, second].map(
      (store) =>
        new VoteLedger(
          { store, reminderCheckMs: 0 },
          () => builtInLists,
          () => T0 + 12 * HOUR,
        ),
    );
    const voters = Array.from({ length: 20 }, (_, i) => `voter${i}`);
    await Promise.all(voters.map((voterId) => ledgers[0]!.record(vote({ voterId }))));
    for (const voterId of voters) await ledgers[0]!.remind(voterId);
    const checks = await Promise.all([...ledgers, ...ledgers].map((ledger) => ledger.checkReminders()));
    expect(
      checks
        .flat()
        .map((event) => event.userId)
        .sort(),
    ).toEqual([...voters].sort());
    for (const ledger of ledgers) await ledger.close();
  });

  it('store copies of a vote recorded by both at the same time once: they race for one key', async () => {
    const [first, second] = await openTwice();
    const ledgers = [first, second].map(
      (store) =>
        new VoteLedger(
          { store, reminderCheckMs: 0 },
          () => builtInLists,
          () => T0,
        ),
    );
    const results = await Promise.all(
      [...ledgers, ...ledgers].map((ledger) => ledger.record(vote({ receivedAt: T0 }))),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await ledgers[1]!.votes()).toHaveLength(1);
    for (const ledger of ledgers) await ledger.close();
  });
});

describe.skipIf(!hasPostgres)('PostgreSQL ledger opened by several processes at once', () => {
  it('every one gets the store: creating the tables is serialised, never a duplicate-name error', async () => {
    const options = { connectionString: PG_URL, schema: `${PG_SCHEMA}_fresh` };
    for (const tablePrefix of ['a_', 'b_', 'c_']) {
      const stores = [1, 2, 3].map(() => new PostgresLedgerStore({ ...options, tablePrefix }));
      expect(await Promise.all(stores.map((store) => store.optedIn()))).toEqual([[], [], []]);
      for (const store of stores) await store.close();
    }
  });
});

/** A store whose SQL round trips are counted: SQLite statement runs, or queries sent to a real pg pool. */
type CountedStore = { store: LedgerStore; queries: () => number; release: () => Promise<void> };
const COUNTED: [string, () => Promise<CountedStore>][] = [
  [
    'SQLite',
    async () => {
      const Database = (await import('better-sqlite3')).default;
      const probe = new Database(':memory:');
      const statement = Object.getPrototypeOf(probe.prepare('SELECT 1'));
      probe.close();
      const spies = (['run', 'get', 'all'] as const).map((method) => vi.spyOn(statement, method));
      return {
        store: new SqliteLedgerStore({ filename: join(tmp, `ledger-${storeCount++}.db`) }),
        queries: () => spies.reduce((sum, spy) => sum + spy.mock.calls.length, 0),
        release: async () => {
          for (const spy of spies) spy.mockRestore();
        },
      };
    },
  ],
];
if (hasPostgres)
  COUNTED.push([
    'PostgreSQL',
    async () => {
      const pg = (await import('pg')).default;
      const pool = new pg.Pool({ connectionString: PG_URL });
      let queries = 0;
      const counting = {
        query: (sql: string, params?: unknown[]) => {
          queries++;
          return pool.query(sql, params) as never;
        },
        end: () => pool.end(),
      };
      return {
        store: new PostgresLedgerStore({
          pool: counting,
          schema: PG_SCHEMA,
          tablePrefix: `t${storeCount++}_`,
        }),
        queries: () => queries,
        release: () => pool.end(),
      };
    },
  ]);

describe.each(COUNTED)('reminders on the %s store', (_name, open) => {
  it('one query per check, however many voters and lists: 300 voters on two lists', async () => {
    const { store, queries, release } = await open();
    let now = T0;
    // discordbotlist.com records no cooldown: give it one, so two lists are due at different times.
    const withDbl = builtInLists.map((l) =>
      l.id === 'discordbotlist.com' ? { ...l, voteCooldownHours: 24 } : l,
    );
    const ledger = new VoteLedger(
      { store, reminderCheckMs: 0 },
      () => withDbl,
      () => now,
    );
    const voters = Array.from({ length: 300 }, (_, i) => `v${String(i).padStart(3, '0')}`);
    await Promise.all(voters.map((voterId) => ledger.record(vote({ voterId }))));
    const dblVoters = voters.filter((_, i) => i % 2 === 0);
    await Promise.all(
      dblVoters.map((voterId) => ledger.record(vote({ voterId, listId: 'discordbotlist.com' }))),
    );
    const optedIn = voters.slice(0, 100);
    for (const voterId of optedIn) await ledger.remind(voterId);

    const check = async () => {
      const before = queries();
      const events = await ledger.checkReminders();
      return { events, queries: queries() - before };
    };
    now = T0 + 12 * HOUR - 1;
    expect(await check()).toEqual({ events: [], queries: 1 });
    now = T0 + 12 * HOUR;
    const topgg = await check();
    expect(topgg.queries).toBe(1);
    expect(topgg.events).toEqual(optedIn.map((userId) => ({ list: 'top.gg', userId, at: new Date(now) })));
    now = T0 + 24 * HOUR;
    const dbl = await check();
    expect(dbl.queries).toBe(1);
    expect(dbl.events.map((e) => [e.list, e.userId])).toEqual(
      optedIn.filter((v) => dblVoters.includes(v)).map((userId) => ['discordbotlist.com', userId]),
    );
    expect(await check()).toEqual({ events: [], queries: 1 });
    await ledger.close();
    await release();
  });
});

describe('SQLite ledger store', () => {
  it('prepares each statement once per store, however many calls follow', async () => {
    const Database = (await import('better-sqlite3')).default;
    const prepare = vi.spyOn(Database.prototype, 'prepare');
    const store = new SqliteLedgerStore({ filename: join(tmp, `ledger-${storeCount++}.db`) });
    const ledger = new VoteLedger(
      { store, reminderCheckMs: 0 },
      () => builtInLists,
      () => T0 + 100 * HOUR,
    );
    // Every store call: latest + add (record), query (votes), setOptIn (remind), the reminder check.
    const round = async (i: number) => {
      await ledger.record(vote({ voterId: `u${i}`, receivedAt: T0 + i }));
      await ledger.votes({ userId: `u${i}` });
      await ledger.remind(`u${i}`, i % 2 === 0);
      await ledger.checkReminders();
    };
    await round(0);
    const prepared = prepare.mock.calls.length;
    for (let i = 1; i <= 20; i++) await round(i);
    expect(prepare.mock.calls.length).toBe(prepared);
    prepare.mockRestore();
    await ledger.close();
  });
});

describe('ledger store options', () => {
  it('refuses table prefixes and schemas that are not plain identifiers', () => {
    expect(() => new SqliteLedgerStore({ filename: ':memory:', tablePrefix: 'x; DROP TABLE y' })).toThrow(
      /tablePrefix "x; DROP TABLE y" must be letters, digits and _/,
    );
    expect(() => new PostgresLedgerStore({ connectionString: PG_URL, schema: 'a"b' })).toThrow(/schema/);
  });
});
