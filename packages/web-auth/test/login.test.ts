/**
 * @module The sign-in flow on SQLite and PostgreSQL: success (session + CSRF + audit entry), wrong
 * password, unknown user, disabled user, oversized password, rehash on parameter change, the
 * per-client throttle with retry-after, and the durable lockouts (per client; per username only
 * against clients that failed for it).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createWebAuth, type WebAuth } from '../src/index.js';
import { cheapArgon2, type FakeClock, fakeClock } from './support/clock.js';
import { databaseKinds, openTestDatabase, type TestDatabase } from './support/databases.js';

const password = 'the right password';

describe.each(databaseKinds)('login on %s', (kind) => {
  let database: TestDatabase;
  let clock: FakeClock;
  let auth: WebAuth;

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    const seed = createWebAuth({ db: database.db, argon2: cheapArgon2 });
    await seed.users.create({ username: 'frank', password, role: 'admin' });
    await seed.users.create({ username: 'grace', password, role: 'viewer', disabled: true });
    await seed.users.create({ username: 'heidi', password, role: 'viewer' });
  });
  afterAll(async () => database?.close());

  beforeEach(async () => {
    // A fresh throttle (in-memory state) and a clock far from the last test's locks.
    await database.db.deleteFrom('auth_lockouts').execute();
    // Starts on a whole minute, so a test that advances less than a minute stays in one window of
    // the per-minute refusal counters (a random start sometimes split its count across two).
    clock = fakeClock(Date.UTC(2026, 0, 1) + Math.floor(Math.random() * 16_000) * 60_000);
    auth = createWebAuth({ db: database.db, now: clock.now, argon2: cheapArgon2 });
  });

  it('signs in: a live session, its CSRF token, and an audit entry', async () => {
    const result = await auth.login({ username: 'Frank', password, client: '192.0.2.1', requestId: 'r1' });
    if (result.kind !== 'ok') throw new Error(`expected ok, got ${result.kind}`);
    expect(result.user.username).toBe('frank');
    const valid = await auth.sessions.validate(result.token);
    expect(valid?.user.id).toBe(result.user.id);
    expect(valid?.csrf).toBe(result.csrf);
    const [entry] = (await auth.audit.list({ action: 'auth.login', limit: 1 })).entries;
    expect(entry).toMatchObject({
      actor: 'frank',
      target: result.user.id,
      outcome: 'success',
      requestId: 'r1',
      client: '192.0.2.1',
      detail: { session_id: result.session.id },
    });
    expect(JSON.stringify(entry)).not.toContain(password);
  });

  it('refuses a wrong password and an unknown user alike, auditing both without the password', async () => {
    expect(
      await auth.login({ username: 'frank', password: 'not the password', client: '192.0.2.2' }),
    ).toEqual({
      kind: 'invalid_credentials',
    });
    expect(await auth.login({ username: 'nobody', password, client: '192.0.2.2' })).toEqual({
      kind: 'invalid_credentials',
    });
    expect(await auth.login({ username: '../../etc', password, client: '192.0.2.2' })).toEqual({
      kind: 'invalid_credentials',
    });
    const { entries } = await auth.audit.list({ outcome: 'invalid_credentials', limit: 3 });
    expect(entries.map((entry) => entry.actor)).toEqual(['../../etc', 'nobody', 'frank']);
    expect(JSON.stringify(entries)).not.toContain('not the password');
  });

  it('says disabled only after the right password for a disabled user', async () => {
    expect(
      await auth.login({ username: 'grace', password: 'wrong wrong wrong', client: '192.0.2.3' }),
    ).toEqual({
      kind: 'invalid_credentials',
    });
    expect(await auth.login({ username: 'grace', password, client: '192.0.2.3' })).toEqual({
      kind: 'disabled',
    });
    expect(await database.db.selectFrom('auth_sessions').selectAll().execute()).toHaveLength(1);
  });

  it('refuses a password over 1,024 bytes as invalid credentials', async () => {
    expect(await auth.login({ username: 'frank', password: 'x'.repeat(1025), client: '192.0.2.4' })).toEqual({
      kind: 'invalid_credentials',
    });
  });

  it('rehashes a password made with older parameters at the next sign-in', async () => {
    const stronger = createWebAuth({
      db: database.db,
      now: clock.now,
      argon2: { ...cheapArgon2, memoryCost: 2048 },
    });
    const result = await stronger.login({ username: 'heidi', password, client: '192.0.2.5' });
    expect(result.kind).toBe('ok');
    const row = await database.db
      .selectFrom('auth_users')
      .select('password_hash')
      .where('username', '=', 'heidi')
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toContain('$m=2048,t=1,p=1$');
    expect((await stronger.login({ username: 'heidi', password, client: '192.0.2.5' })).kind).toBe('ok');
  });

  it('allows 5 attempts per client per minute, then answers rate limited with retry-after', async () => {
    const usernames = ['u1', 'u2', 'u3', 'u4', 'u5', 'u6'];
    const results = [];
    for (const username of usernames) {
      results.push(await auth.login({ username, password: 'whatever whatever', client: '198.51.100.7' }));
    }
    expect(results.slice(0, 5).every((result) => result.kind === 'invalid_credentials')).toBe(true);
    expect(results[5]).toEqual({ kind: 'rate_limited', retryAfterSeconds: 60 });
    // Even the right password is refused while limited, and the refusal is counted.
    clock.advance(20_000);
    expect(await auth.login({ username: 'frank', password, client: '198.51.100.7' })).toEqual({
      kind: 'rate_limited',
      retryAfterSeconds: 40,
    });
    // Refused before any check, so counted per window (a flood adds no chained entry), with a sample.
    expect((await auth.audit.list({ outcome: 'rate_limited' })).entries).toEqual([]);
    expect(await auth.audit.listRefusals()).toMatchObject([
      { kind: 'auth.login rate_limited', count: 2, sample: { username: 'u6', client: '198.51.100.7' } },
    ]);
    // Another client is unaffected; the window ends after a minute.
    expect((await auth.login({ username: 'frank', password, client: '198.51.100.8' })).kind).toBe('ok');
    clock.advance(40_000);
    expect((await auth.login({ username: 'frank', password, client: '198.51.100.7' })).kind).toBe('ok');
  });

  it('gives a successful sign-in its attempt back: signing in often never throttles the user', async () => {
    for (let index = 0; index < 12; index++) {
      expect((await auth.login({ username: 'frank', password, client: '198.51.100.20' })).kind).toBe('ok');
    }
    // The failures still count in full, from that client and for that username.
    for (let index = 0; index < 4; index++) {
      expect(
        (await auth.login({ username: 'frank', password: 'wrong password!', client: '198.51.100.20' })).kind,
      ).toBe('invalid_credentials');
    }
    // The 5th attempt reaches the limit but succeeds, so it is given back; one more failure fills it.
    expect((await auth.login({ username: 'frank', password, client: '198.51.100.20' })).kind).toBe('ok');
    expect(
      (await auth.login({ username: 'frank', password: 'wrong password!', client: '198.51.100.20' })).kind,
    ).toBe('invalid_credentials');
    expect((await auth.login({ username: 'frank', password, client: '198.51.100.20' })).kind).toBe(
      'rate_limited',
    );
  });

  it('counts IPv6 clients per /64 and IPv4-mapped addresses as IPv4', async () => {
    for (let index = 1; index <= 5; index++) {
      await auth.login({
        username: `v6user${index}`,
        password: 'whatever whatever',
        client: `2001:db8:1:2::${index}`,
      });
    }
    expect((await auth.login({ username: 'frank', password, client: '2001:db8:1:2:ffff::1' })).kind).toBe(
      'rate_limited',
    );
    expect((await auth.login({ username: 'frank', password, client: '2001:db8:1:3::1' })).kind).toBe('ok');
    for (let index = 1; index <= 5; index++) {
      await auth.login({ username: `v4user${index}`, password: 'whatever whatever', client: '203.0.113.9' });
    }
    expect((await auth.login({ username: 'frank', password, client: '::ffff:203.0.113.9' })).kind).toBe(
      'rate_limited',
    );
  });

  it('failures from five addresses do not lock the owner out: the right password from a sixth signs in', async () => {
    for (let index = 1; index <= 5; index++) {
      const result = await auth.login({
        username: 'frank',
        password: 'wrong password!',
        client: `192.0.2.${index}`,
      });
      expect(result.kind).toBe('invalid_credentials');
    }
    expect((await auth.login({ username: 'FRANK', password, client: '192.0.2.99' })).kind).toBe('ok');
  });

  it('after 10 failures for a username in 15 minutes, durably refuses the clients that failed, not the others', async () => {
    for (let index = 0; index < 10; index++) {
      expect(
        (await auth.login({ username: 'heidi', password: 'wrong password!', client: `10.1.0.${index}` }))
          .kind,
      ).toBe('invalid_credentials');
      clock.advance(30_000);
    }
    const lockRow = await database.db
      .selectFrom('auth_lockouts')
      .selectAll()
      .where('key', '=', 'user:heidi')
      .executeTakeFirstOrThrow();
    expect(Number(lockRow.locked_until)).toBe(clock.now() - 30_000 + 15 * 60_000);

    // A new process (fresh memory) still refuses a failing client, even with the right password...
    const restarted = createWebAuth({ db: database.db, now: clock.now, argon2: cheapArgon2 });
    const refused = await restarted.login({ username: 'heidi', password, client: '10.1.0.9' });
    expect(refused).toEqual({ kind: 'rate_limited', retryAfterSeconds: 15 * 60 - 30 });
    // ...and a fresh one gets one guess, which counts: that client is then refused too.
    expect(
      (await restarted.login({ username: 'heidi', password: 'wrong password!', client: '10.5.0.1' })).kind,
    ).toBe('invalid_credentials');
    expect((await restarted.login({ username: 'heidi', password, client: '10.5.0.1' })).kind).toBe(
      'rate_limited',
    );
    // The owner, from an address that has not been failing, signs in.
    expect((await restarted.login({ username: 'heidi', password, client: '10.2.0.1' })).kind).toBe('ok');
    clock.advance((15 * 60 - 30) * 1000);
    expect((await restarted.login({ username: 'heidi', password, client: '10.1.0.9' })).kind).toBe('ok');
    expect((await restarted.purgeExpired()).lockouts).toBeGreaterThanOrEqual(1);
  });

  it('an administrator can lift a username lock, from another process', async () => {
    for (let index = 0; index < 10; index++) {
      await auth.login({ username: 'frank', password: 'wrong password!', client: `10.3.0.${index}` });
      clock.advance(13_000);
    }
    expect((await auth.login({ username: 'frank', password, client: '10.3.0.1' })).kind).toBe('rate_limited');
    const administrator = createWebAuth({ db: database.db, now: clock.now, argon2: cheapArgon2 });
    await administrator.throttle.unlockUsername('Frank');
    expect((await auth.login({ username: 'frank', password, client: '10.3.0.1' })).kind).toBe('ok');
    // Every failure was forgotten: nine more do not lock the failing clients again.
    for (let index = 0; index < 9; index++) {
      await auth.login({ username: 'frank', password: 'wrong password!', client: `10.3.0.${index}` });
      clock.advance(13_000);
    }
    expect((await auth.login({ username: 'frank', password, client: '10.3.0.2' })).kind).toBe('ok');
  });

  it('locks a client after 30 failures in 15 minutes', async () => {
    for (let index = 0; index < 30; index++) {
      expect(
        (await auth.login({ username: `spray${index}`, password: 'wrong password!', client: '10.9.9.9' }))
          .kind,
      ).toBe('invalid_credentials');
      clock.advance(15_000);
    }
    expect((await auth.login({ username: 'frank', password, client: '10.9.9.9' })).kind).toBe('rate_limited');
    expect((await auth.login({ username: 'frank', password, client: '10.9.9.10' })).kind).toBe('ok');
  });
});
