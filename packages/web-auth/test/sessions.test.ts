/**
 * @module Sessions on SQLite and PostgreSQL with an injected clock: only the token's SHA-256 is
 * stored, idle timeout, absolute lifetime, touch at most every N seconds, logout, purge, and the
 * session cookie's attributes and parsing.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  clearSessionCookie,
  createWebAuth,
  csrfTokenFor,
  readSessionCookie,
  serializeSessionCookie,
  type User,
  type WebAuth,
} from '../src/index.js';
import { SessionCache } from '../src/sessions/session-cache.js';
import { cheapArgon2, fakeClock } from './support/clock.js';
import { databaseKinds, openTestDatabase, type TestDatabase } from './support/databases.js';

const minute = 60_000;

describe.each(databaseKinds)('sessions on %s', (kind) => {
  let database: TestDatabase;
  let auth: WebAuth;
  let user: User;
  const clock = fakeClock();

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    auth = createWebAuth({
      db: database.db,
      now: clock.now,
      argon2: cheapArgon2,
      sessions: {
        idleTimeoutSeconds: 30 * 60,
        absoluteLifetimeSeconds: 2 * 60 * 60,
        touchIntervalSeconds: 60,
      },
    });
    user = await auth.users.create({ username: 'erin', password: 'a long enough password', role: 'viewer' });
  });
  afterAll(async () => database?.close());

  async function storedRow(id: string) {
    return database.db.selectFrom('auth_sessions').selectAll().where('id', '=', id).executeTakeFirst();
  }

  it('returns a 256-bit token once and stores only its SHA-256', async () => {
    const created = await auth.sessions.create(user.id, { client: '10.0.0.1', userAgent: 'test' });
    expect(created.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(created.token, 'base64url')).toHaveLength(32);
    const row = (await storedRow(created.session.id))!;
    expect(row.token_hash).toBe(createHash('sha256').update(created.token).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(created.token);
    expect(JSON.stringify(row)).not.toContain(created.csrf);
    expect(created.csrf).toBe(csrfTokenFor(created.token));
    const valid = await auth.sessions.validate(created.token);
    expect(valid?.user.id).toBe(user.id);
    expect(valid?.csrf).toBe(created.csrf);
    expect(valid?.session).toMatchObject({ client: '10.0.0.1', userAgent: 'test' });
  });

  it('gives every session its own CSRF token', async () => {
    const a = await auth.sessions.create(user.id);
    const b = await auth.sessions.create(user.id);
    expect(a.csrf).not.toBe(b.csrf);
    expect(a.token).not.toBe(b.token);
  });

  it('refuses unknown and malformed tokens', async () => {
    expect(await auth.sessions.validate('x'.repeat(43))).toBeUndefined();
    expect(await auth.sessions.validate('short')).toBeUndefined();
    expect(await auth.sessions.validate(`${'a'.repeat(42)}!`)).toBeUndefined();
  });

  it('ends a session left idle for the idle timeout', async () => {
    const created = await auth.sessions.create(user.id);
    clock.advance(30 * minute - 1);
    expect(await auth.sessions.validate(created.token)).toBeDefined();
    // That use reset the idle timer: another 30 minutes minus a millisecond is still fine.
    clock.advance(30 * minute - 1);
    expect(await auth.sessions.validate(created.token)).toBeDefined();
    clock.advance(30 * minute);
    expect(await auth.sessions.validate(created.token)).toBeUndefined();
    expect(await storedRow(created.session.id)).toBeUndefined();
  });

  it('ends a session at its absolute lifetime however often it is used', async () => {
    const created = await auth.sessions.create(user.id);
    for (let elapsed = 0; elapsed < 2 * 60 - 10; elapsed += 10) {
      clock.advance(10 * minute);
      expect(await auth.sessions.validate(created.token)).toBeDefined();
    }
    clock.advance(10 * minute);
    expect(await auth.sessions.validate(created.token)).toBeUndefined();
  });

  it('writes last_seen_at at most once per touch interval', async () => {
    const created = await auth.sessions.create(user.id);
    const start = clock.now();
    clock.advance(59_000);
    await auth.sessions.validate(created.token);
    expect(Number((await storedRow(created.session.id))?.last_seen_at)).toBe(start);
    clock.advance(1_000);
    await auth.sessions.validate(created.token);
    expect(Number((await storedRow(created.session.id))?.last_seen_at)).toBe(start + 60_000);
  });

  it('logout deletes the row and records auth.logout; one without a session is only counted', async () => {
    const created = await auth.sessions.create(user.id);
    expect(await auth.logout({ token: created.token, actor: user.username, requestId: 'req-1' })).toBe(true);
    expect(await storedRow(created.session.id)).toBeUndefined();
    expect(await auth.sessions.validate(created.token)).toBeUndefined();
    expect(await auth.logout({ token: created.token })).toBe(false);
    const { entries } = await auth.audit.list({ action: 'auth.logout' });
    expect(entries.map((entry) => [entry.actor, entry.outcome, entry.requestId])).toEqual([
      ['erin', 'success', 'req-1'],
    ]);
    expect(await auth.audit.listRefusals()).toMatchObject([{ kind: 'auth.logout no_session', count: 1 }]);
  });

  it('purges idle and lifetime-expired rows and keeps live ones', async () => {
    await auth.purgeExpired();
    const live = await auth.sessions.create(user.id);
    const before = (await database.db.selectFrom('auth_sessions').select('id').execute()).length;
    const stale = await auth.sessions.create(user.id);
    clock.advance(31 * minute);
    await auth.sessions.validate(live.token).catch(() => undefined);
    const fresh = await auth.sessions.create(user.id);
    const purged = await auth.purgeExpired();
    expect(purged.sessions).toBe(before);
    const ids = (await database.db.selectFrom('auth_sessions').select('id').execute()).map((row) => row.id);
    expect(ids).toEqual([fresh.session.id]);
    expect(ids).not.toContain(stale.session.id);
  });

  it('lists and revokes all sessions of a user', async () => {
    await auth.sessions.create(user.id);
    await auth.sessions.create(user.id);
    expect((await auth.sessions.listForUser(user.id)).length).toBe(3);
    expect(await auth.sessions.revokeAllForUser(user.id)).toBe(3);
    expect(await auth.sessions.listForUser(user.id)).toEqual([]);
  });
});

describe('the session cookie', () => {
  const token = 'A'.repeat(43);

  it('is HttpOnly, SameSite=Strict, Path=/ and Secure only when asked', () => {
    expect(serializeSessionCookie('firewarden_session', token)).toBe(
      `firewarden_session=${token}; Path=/; HttpOnly; SameSite=Strict`,
    );
    expect(serializeSessionCookie('workspaced_session', token, { secure: true, maxAgeSeconds: 3600 })).toBe(
      `workspaced_session=${token}; Path=/; HttpOnly; SameSite=Strict; Secure; Max-Age=3600`,
    );
    expect(clearSessionCookie('firewarden_session', { secure: true })).toBe(
      'firewarden_session=; Path=/; HttpOnly; SameSite=Strict; Secure; Max-Age=0',
    );
  });

  it('is read from a Cookie header among others, and only when well formed', () => {
    expect(readSessionCookie(`a=1; firewarden_session=${token}; b=2`, 'firewarden_session')).toBe(token);
    expect(
      readSessionCookie(`firewarden_session=bad; firewarden_session=${token}`, 'firewarden_session'),
    ).toBe(token);
    expect(readSessionCookie(`xfirewarden_session=${token}`, 'firewarden_session')).toBeUndefined();
    expect(readSessionCookie('firewarden_session=short', 'firewarden_session')).toBeUndefined();
    expect(readSessionCookie(undefined, 'firewarden_session')).toBeUndefined();
    expect(
      readSessionCookie(`${'x=y; '.repeat(4000)}firewarden_session=${token}`, 'firewarden_session'),
    ).toBeUndefined();
  });
});

describe.each(databaseKinds)('the optional session cache on %s', (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
  });
  afterAll(async () => database?.close());

  async function setUp(cacheSeconds?: number) {
    const clock = fakeClock();
    const auth = createWebAuth({
      db: database.db,
      now: clock.now,
      argon2: cheapArgon2,
      sessions: cacheSeconds === undefined ? {} : { cacheSeconds },
    });
    const user = await auth.users.create({
      username: `cache${Math.random().toString(36).slice(2, 10)}`,
      password: 'a long enough password',
      role: 'viewer',
    });
    return { clock, auth, user, created: await auth.sessions.create(user.id) };
  }

  const deleteBehindItsBack = (id: string) =>
    database.db.deleteFrom('auth_sessions').where('id', '=', id).execute();

  it('is off by default: a row deleted by another process ends the session at once', async () => {
    const { auth, created } = await setUp();
    expect(await auth.sessions.validate(created.token)).toBeDefined();
    await deleteBehindItsBack(created.session.id);
    expect(await auth.sessions.validate(created.token)).toBeUndefined();
  });

  it('when on, serves from memory for cacheSeconds, then reads the database again', async () => {
    const { clock, auth, created } = await setUp(5);
    expect(await auth.sessions.validate(created.token)).toBeDefined();
    await deleteBehindItsBack(created.session.id);
    clock.advance(4_999);
    // From memory, with the session's own CSRF token.
    expect((await auth.sessions.validate(created.token))?.csrf).toBe(created.csrf);
    clock.advance(1);
    expect(await auth.sessions.validate(created.token)).toBeUndefined();
  });

  it('forgets at once what this process changes: logout, role, disabling, password, revoke-all', async () => {
    const { auth, user, created } = await setUp(60);
    expect((await auth.sessions.validate(created.token))?.user.role).toBe('viewer');
    await auth.users.setRole(user.id, 'admin');
    expect((await auth.sessions.validate(created.token))?.user.role).toBe('admin');

    await auth.users.setDisabled(user.id, true);
    expect(await auth.sessions.validate(created.token)).toBeUndefined();
    await auth.users.setDisabled(user.id, false);

    const second = await auth.sessions.create(user.id);
    expect(await auth.sessions.validate(second.token)).toBeDefined();
    await auth.logout({ token: second.token });
    expect(await auth.sessions.validate(second.token)).toBeUndefined();

    const third = await auth.sessions.create(user.id);
    expect(await auth.sessions.validate(third.token)).toBeDefined();
    await auth.users.setPassword(user.id, 'another long password');
    expect(await auth.sessions.validate(third.token)).toBeUndefined();

    const fourth = await auth.sessions.create(user.id);
    expect(await auth.sessions.validate(fourth.token)).toBeDefined();
    await auth.sessions.revokeAllForUser(user.id);
    expect(await auth.sessions.validate(fourth.token)).toBeUndefined();
  });

  it('still applies the idle timeout and touches the row from cached sessions', async () => {
    const { clock, auth, created } = await setUp(3600);
    await auth.sessions.validate(created.token);
    clock.advance(61_000);
    await auth.sessions.validate(created.token);
    const row = await database.db
      .selectFrom('auth_sessions')
      .select('last_seen_at')
      .where('id', '=', created.session.id)
      .executeTakeFirstOrThrow();
    expect(Number(row.last_seen_at)).toBe(clock.now());
    clock.advance(30 * 60_000);
    expect(await auth.sessions.validate(created.token)).toBeUndefined();
  });

  it('hands out copies: changing a returned object does not change the cache', async () => {
    const { auth, created } = await setUp(60);
    const first = await auth.sessions.validate(created.token);
    first!.user.role = 'owner';
    expect((await auth.sessions.validate(created.token))?.user.role).toBe('viewer');
  });
});

describe('the session cache bound', () => {
  it('keeps at most maxEntries, dropping the least recently used', () => {
    const clock = fakeClock();
    const cache = new SessionCache(60_000, 3, clock.now);
    const entry = (id: string) => ({
      user: { id: `user-${id}` } as User,
      session: { id: `session-${id}` } as Parameters<SessionCache['set']>[2],
    });
    for (const id of ['a', 'b', 'c']) cache.set(id, entry(id).user, entry(id).session, `csrf-${id}`);
    cache.get('a');
    cache.set('d', entry('d').user, entry('d').session, 'csrf-d');
    expect(cache.size).toBe(3);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBeDefined();
    cache.forgetUser('user-a');
    expect(cache.get('a')).toBeUndefined();
    expect(cache.size).toBe(2);
  });
});

describe.each(databaseKinds)('the session cache with two processes on %s', (kind) => {
  it('does not end a session as idle when another process used it after it was cached', async () => {
    const database = await openTestDatabase(kind);
    try {
      const clock = fakeClock();
      const options = { now: clock.now, argon2: cheapArgon2, sessions: { cacheSeconds: 3600 } };
      const first = createWebAuth({ db: database.db, ...options });
      const second = createWebAuth({ db: database.openSecond(), ...options });
      const user = await first.users.create({
        username: 'lena',
        password: 'a long enough password',
        role: 'viewer',
      });
      const created = await first.sessions.create(user.id);
      expect(await first.sessions.validate(created.token)).toBeDefined();
      // The second process serves the user for most of an idle timeout, touching the row.
      clock.advance(29 * 60_000);
      expect(await second.sessions.validate(created.token)).toBeDefined();
      // The first process's cached copy says idle for 30 minutes; the row says 1 minute.
      clock.advance(60_000);
      expect(await first.sessions.validate(created.token)).toBeDefined();
    } finally {
      await database.close();
    }
  });
});
