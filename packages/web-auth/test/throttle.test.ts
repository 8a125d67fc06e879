/**
 * @module The in-memory attempt counters (bounded, blocks never evicted by pressure) and the client
 * key (IPv4, IPv4-mapped IPv6 as IPv4, IPv6 per /64); plus, on SQLite and PostgreSQL, that a
 * sign-in block survives filling the tables with other clients, and that many addresses guessing
 * one username get one guess each once its budget is spent while its owner still signs in.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientKey, createWebAuth } from '../src/index.js';
import { WindowCounters } from '../src/throttle/window-counters.js';
import { cheapArgon2, fakeClock } from './support/clock.js';
import { databaseKinds, openTestDatabase, type TestDatabase } from './support/databases.js';

describe('client keys', () => {
  it.each([
    ['192.0.2.1', '192.0.2.1'],
    ['::ffff:192.0.2.1', '192.0.2.1'],
    ['::FFFF:c000:0201', '192.0.2.1'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:db8:1:2::9', '2001:db8:1:2::/64'],
    ['2001:DB8:0001:0002::', '2001:db8:1:2::/64'],
    ['::1', '0:0:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['1:2:3:4:5:6:1.2.3.4', '1:2:3:4::/64'],
    ['not an address', 'other:not an address'],
    ['', 'other:'],
  ])('%s -> %s', (address, key) => {
    expect(clientKey(address)).toBe(key);
  });

  it('bounds what it keeps of a junk address', () => {
    expect(clientKey('x'.repeat(100_000)).length).toBeLessThanOrEqual(70);
  });
});

describe('window counters', () => {
  const make = (overrides = {}) => {
    const clock = fakeClock();
    const counters = new WindowCounters({
      limit: 3,
      windowMs: 60_000,
      maxCounters: 10,
      maxBlocks: 5,
      now: clock.now,
      ...overrides,
    });
    return { clock, counters };
  };

  it('allows `limit` hits per window, then refuses with the time left', () => {
    const { clock, counters } = make();
    expect([counters.hit('a'), counters.hit('a'), counters.hit('a')].every((d) => d.allowed)).toBe(true);
    clock.advance(15_000);
    expect(counters.hit('a')).toEqual({ allowed: false, retryAfterMs: 45_000 });
    clock.advance(45_000);
    expect(counters.hit('a')).toEqual({ allowed: true });
  });

  it('refund gives one attempt back, lifting the block the limit-th attempt set', () => {
    const { clock, counters } = make();
    counters.hit('a');
    counters.refund('a');
    counters.hit('a');
    counters.hit('a');
    expect(counters.blockedFor('a')).toBeUndefined();
    expect(counters.hit('a')).toEqual({ allowed: true });
    expect(counters.blockedFor('a')).toBe(60_000);
    counters.refund('a');
    expect(counters.blockedFor('a')).toBeUndefined();
    clock.advance(10_000);
    expect(counters.hit('a')).toEqual({ allowed: true });
    expect(counters.hit('a')).toEqual({ allowed: false, retryAfterMs: 50_000 });
  });

  it('never holds more than maxCounters counters and maxBlocks blocks', () => {
    const { counters } = make();
    for (let index = 0; index < 1_000; index++) counters.hit(`k${index}`);
    expect(counters.size.counters).toBe(10);
    for (let index = 0; index < 100; index++) for (let hit = 0; hit < 3; hit++) counters.hit(`b${index}`);
    expect(counters.size.blocks).toBe(5);
  });

  it('keeps a block however many other keys come after it', () => {
    const { counters } = make();
    for (let hit = 0; hit < 4; hit++) counters.hit('victim');
    for (let index = 0; index < 10_000; index++) counters.hit(`noise${index}`);
    expect(counters.hit('victim').allowed).toBe(false);
    expect(counters.blockedFor('victim')).toBe(60_000);
  });

  it('when the blocks are full, refuses a key at the limit instead of forgetting a block', () => {
    const { clock, counters } = make();
    for (let index = 0; index < 5; index++) for (let hit = 0; hit < 3; hit++) counters.hit(`b${index}`);
    clock.advance(1_000);
    counters.hit('late');
    counters.hit('late');
    expect(counters.hit('late')).toEqual({ allowed: false, retryAfterMs: 59_000 });
    expect(counters.hit('late').allowed).toBe(false);
    for (let index = 0; index < 5; index++) expect(counters.hit(`b${index}`).allowed).toBe(false);
  });
});

describe.each(databaseKinds)('a sign-in block under pressure on %s', (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
  });
  afterAll(async () => database?.close());

  it('survives filling the throttle with other clients and usernames', async () => {
    const clock = fakeClock();
    const auth = createWebAuth({
      db: database.db,
      now: clock.now,
      argon2: cheapArgon2,
      throttle: { maxTrackedKeys: 50 },
    });
    for (let index = 0; index < 6; index++) {
      await auth.login({ username: `target${index}`, password: 'guess guess guess', client: '192.0.2.66' });
    }
    expect(
      (await auth.login({ username: 'x-user', password: 'guess guess guess', client: '192.0.2.66' })).kind,
    ).toBe('rate_limited');
    // 500 other clients and usernames, ten times the table size, one attempt each.
    for (let index = 0; index < 500; index++) {
      await auth.login({
        username: `filler${index}`,
        password: 'guess guess guess',
        client: `10.${index >> 8}.${index & 255}.1`,
      });
    }
    expect(
      (await auth.login({ username: 'y-user', password: 'guess guess guess', client: '192.0.2.66' })).kind,
    ).toBe('rate_limited');
  });
});

describe.each(databaseKinds)('many addresses against one username on %s', (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
  });
  afterAll(async () => database?.close());

  it('gives 10 guesses, then one per fresh address, and never refuses the owner from a clean address', async () => {
    const clock = fakeClock();
    const auth = createWebAuth({ db: database.db, now: clock.now, argon2: cheapArgon2 });
    const password = 'the owner password';
    await auth.users.create({ username: 'owner', password, role: 'admin' });
    const outcomes: string[] = [];
    // 60 addresses, three tries each, all within one minute.
    for (let address = 0; address < 60; address++) {
      for (let attempt = 0; attempt < 3; attempt++) {
        const result = await auth.login({
          username: 'owner',
          password: `guess ${address} ${attempt} ..`,
          client: `198.18.${address}.1`,
        });
        outcomes.push(result.kind);
      }
    }
    // The first 10 failures come from the first 4 addresses (3 + 3 + 3 + 1); every later address
    // gets exactly one guess.
    expect(outcomes.filter((kind) => kind === 'invalid_credentials')).toHaveLength(10 + 56);
    expect(outcomes.filter((kind) => kind === 'rate_limited')).toHaveLength(180 - 66);
    expect((await auth.login({ username: 'owner', password, client: '198.18.0.1' })).kind).toBe(
      'rate_limited',
    );
    expect((await auth.login({ username: 'owner', password, client: '203.0.113.50' })).kind).toBe('ok');
  });
});
