/**
 * @module Users on SQLite and PostgreSQL: create with validated usernames and the password policy,
 * case-insensitive uniqueness and lookup, list, count, role / display name / disabled / password
 * changes, and that disabling or a new password ends the user's sessions.
 */
import { CamelCasePlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebAuth, verifyPassword, type WebAuth } from '../src/index.js';
import { cheapArgon2, fakeClock } from './support/clock.js';
import { databaseKinds, openTestDatabase, type TestDatabase } from './support/databases.js';

describe.each(databaseKinds)('users on %s', (kind) => {
  let database: TestDatabase;
  let auth: WebAuth;
  const clock = fakeClock();

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    auth = createWebAuth({ db: database.db, now: clock.now, argon2: cheapArgon2 });
  });
  afterAll(async () => database?.close());

  it('creates a user and reads it back by id and by username in any case', async () => {
    const created = await auth.users.create({
      username: 'Alice',
      password: 'correct horse battery',
      role: 'admin',
      displayName: 'Alice A.',
    });
    expect(created).toMatchObject({
      username: 'Alice',
      role: 'admin',
      displayName: 'Alice A.',
      disabled: false,
    });
    expect(created.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.createdAt).toBe(clock.now());
    expect(await auth.users.getById(created.id)).toEqual(created);
    expect(await auth.users.getByUsername('aLiCe')).toEqual(created);
    expect(await auth.users.getByUsername('bob')).toBeUndefined();
    expect(await auth.users.getById('no-such-id')).toBeUndefined();

    const row = await database.db
      .selectFrom('auth_users')
      .selectAll()
      .where('id', '=', created.id)
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\$argon2id\$v=19\$m=1024,t=1,p=1\$/);
    expect(row.password_hash).not.toContain('correct horse');
    expect(await verifyPassword(row.password_hash, 'correct horse battery')).toBe(true);
  });

  it('refuses a username that differs only in case', async () => {
    await expect(
      auth.users.create({ username: 'ALICE', password: 'another long password', role: 'viewer' }),
    ).rejects.toMatchObject({ code: 'USERNAME_TAKEN' });
  });

  it.each([
    ['too short', 'ab'],
    ['too long', 'a'.repeat(65)],
    ['a space', 'al ice'],
    ['a slash', 'al/ice'],
    ['a leading dot', '.alice'],
    ['non-ASCII', 'alicé'],
    ['empty', ''],
  ])('refuses a username with %s', async (_, username) => {
    await expect(
      auth.users.create({ username, password: 'a long enough password', role: 'viewer' }),
    ).rejects.toMatchObject({ name: 'WebAuthError', code: 'USERNAME_INVALID' });
  });

  it('applies the password policy: 12 characters at least, 1,024 bytes at most', async () => {
    await expect(
      auth.users.create({ username: 'bob', password: 'elevenchars', role: 'viewer' }),
    ).rejects.toMatchObject({ code: 'PASSWORD_TOO_SHORT' });
    await expect(
      auth.users.create({ username: 'bob', password: 'é'.repeat(513), role: 'viewer' }),
    ).rejects.toMatchObject({ code: 'PASSWORD_TOO_LONG' });
    // 12 characters, counted as code points (each emoji is two UTF-16 units).
    const bob = await auth.users.create({ username: 'bob', password: '😀'.repeat(12), role: 'viewer' });
    expect(bob.username).toBe('bob');
    await expect(
      auth.users.create({ username: 'carol', password: '😀'.repeat(11), role: 'x' }),
    ).rejects.toMatchObject({
      code: 'PASSWORD_TOO_SHORT',
    });
  });

  it('refuses an empty or non-printable role', async () => {
    await expect(
      auth.users.create({ username: 'dave', password: 'a long enough password', role: '' }),
    ).rejects.toMatchObject({ code: 'ROLE_INVALID' });
    await expect(
      auth.users.create({ username: 'dave', password: 'a long enough password', role: 'ad min' }),
    ).rejects.toMatchObject({ code: 'ROLE_INVALID' });
  });

  it('lists users by username and counts them', async () => {
    await auth.users.create({ username: 'carol', password: 'a long enough password', role: 'viewer' });
    expect((await auth.users.list()).map((user) => user.username)).toEqual(['Alice', 'bob', 'carol']);
    expect((await auth.users.list({ limit: 1, offset: 1 })).map((user) => user.username)).toEqual(['bob']);
    expect(await auth.users.count()).toBe(3);
  });

  it('changes role and display name, and says USER_NOT_FOUND for an unknown id', async () => {
    const carol = await auth.users.getByUsername('carol');
    clock.advance(1_000);
    const updated = await auth.users.setRole(carol!.id, 'operator');
    expect(updated.role).toBe('operator');
    expect(updated.updatedAt).toBe(clock.now());
    expect((await auth.users.setDisplayName(carol!.id, 'Carol C.')).displayName).toBe('Carol C.');
    expect((await auth.users.setDisplayName(carol!.id, null)).displayName).toBeNull();
    await expect(auth.users.setRole('00000000-0000-0000-0000-000000000000', 'viewer')).rejects.toMatchObject({
      code: 'USER_NOT_FOUND',
    });
    await expect(auth.users.setDisabled('x'.repeat(10_000), true)).rejects.toMatchObject({
      code: 'USER_NOT_FOUND',
    });
    expect(await auth.users.getById(42 as unknown as string)).toBeUndefined();
    await expect(auth.users.setDisplayName(carol!.id, 'line\nbreak')).rejects.toMatchObject({
      code: 'DISPLAY_NAME_INVALID',
    });
  });

  it('disabling a user ends their sessions and refuses the session afterwards', async () => {
    const carol = (await auth.users.getByUsername('carol'))!;
    const first = await auth.sessions.create(carol.id);
    const second = await auth.sessions.create(carol.id);
    expect(await auth.sessions.validate(first.token)).toBeDefined();
    const disabled = await auth.users.setDisabled(carol.id, true);
    expect(disabled.disabled).toBe(true);
    expect(await auth.sessions.validate(first.token)).toBeUndefined();
    expect(await auth.sessions.validate(second.token)).toBeUndefined();
    const rows = await database.db
      .selectFrom('auth_sessions')
      .selectAll()
      .where('user_id', '=', carol.id)
      .execute();
    expect(rows).toEqual([]);
    expect((await auth.users.setDisabled(carol.id, false)).disabled).toBe(false);
  });

  it('a new password replaces the hash and ends every session of the user only', async () => {
    const alice = (await auth.users.getByUsername('alice'))!;
    const bob = (await auth.users.getByUsername('bob'))!;
    const aliceSession = await auth.sessions.create(alice.id);
    const bobSession = await auth.sessions.create(bob.id);
    await expect(auth.users.setPassword(alice.id, 'short')).rejects.toMatchObject({
      code: 'PASSWORD_TOO_SHORT',
    });
    expect(await auth.sessions.validate(aliceSession.token)).toBeDefined();

    clock.advance(1_000);
    const updated = await auth.users.setPassword(alice.id, 'a brand new password');
    expect(updated.passwordChangedAt).toBe(clock.now());
    expect(await auth.sessions.validate(aliceSession.token)).toBeUndefined();
    expect(await auth.sessions.validate(bobSession.token)).toBeDefined();
    const row = await database.db
      .selectFrom('auth_users')
      .selectAll()
      .where('id', '=', alice.id)
      .executeTakeFirstOrThrow();
    expect(await verifyPassword(row.password_hash, 'a brand new password')).toBe(true);
    expect(await verifyPassword(row.password_hash, 'correct horse battery')).toBe(false);
  });

  it('a password changed from one of the user sessions keeps that session and ends the others', async () => {
    const alice = (await auth.users.getByUsername('alice'))!;
    const here = await auth.sessions.create(alice.id);
    const elsewhere = await auth.sessions.create(alice.id);
    await auth.users.setPassword(alice.id, 'another new password', { keepSessionId: here.session.id });
    expect(await auth.sessions.validate(here.token)).toBeDefined();
    expect(await auth.sessions.validate(elsewhere.token)).toBeUndefined();
  });
});

describe.each(databaseKinds)('keeping one enabled admin on %s', (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
  });
  afterAll(async () => database?.close());

  it('refuses to demote or disable the last enabled admin, even two at once, and changes nothing', async () => {
    const auth = createWebAuth({ db: database.db, argon2: cheapArgon2 });
    const other = createWebAuth({ db: database.openSecond(), argon2: cheapArgon2 });
    const password = 'a long enough password';
    const first = await auth.users.create({ username: 'root1', password, role: 'admin' });
    const second = await auth.users.create({ username: 'root2', password, role: 'admin' });
    const keep = { keepEnabled: 'admin' };
    // Two processes each remove "the other" admin at the same time: exactly one succeeds.
    const results = await Promise.allSettled([
      auth.users.setDisabled(first.id, true, keep),
      other.users.setRole(second.id, 'viewer', keep),
    ]);
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    const refused = results.find((result) => result.status === 'rejected') as PromiseRejectedResult;
    expect(refused.reason).toMatchObject({ code: 'LAST_OF_ROLE' });
    const admins = (await auth.users.list()).filter((user) => user.role === 'admin' && !user.disabled);
    expect(admins).toHaveLength(1);
    await expect(auth.users.setRole(admins[0]!.id, 'viewer', keep)).rejects.toMatchObject({
      code: 'LAST_OF_ROLE',
    });
    expect((await auth.users.getById(admins[0]!.id))?.role).toBe('admin');
    // Without the option the store does as told (the product decides).
    expect((await auth.users.setRole(admins[0]!.id, 'viewer')).role).toBe('viewer');
  });
});

describe.each(databaseKinds)('first user on %s', (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
  });
  afterAll(async () => database?.close());

  it('of many concurrent first-run setups in two processes, exactly one creates a user', async () => {
    const first = createWebAuth({ db: database.db, argon2: cheapArgon2 });
    const second = createWebAuth({ db: database.openSecond(), argon2: cheapArgon2 });
    const attempts = Array.from({ length: 8 }, (_, index) =>
      (index % 2 ? second : first).users.createFirst({
        username: `owner${index}`,
        password: 'a long enough password',
        role: 'owner',
      }),
    );
    const results = await Promise.all(attempts);
    const winners = results.filter((user) => user !== undefined);
    expect(winners).toHaveLength(1);
    expect(await first.users.count()).toBe(1);
    expect((await first.users.list())[0]?.id).toBe(winners[0]?.id);
    expect(
      await first.users.createFirst({ username: 'late', password: 'a long enough password', role: 'owner' }),
    ).toBeUndefined();
  });

  it('validates before anything else', async () => {
    const auth = createWebAuth({ db: database.db, argon2: cheapArgon2 });
    await expect(
      auth.users.createFirst({ username: 'x', password: 'a long enough password', role: 'owner' }),
    ).rejects.toMatchObject({
      code: 'USERNAME_INVALID',
    });
  });
});

describe.each(databaseKinds)('a product Kysely with plugins on %s', (kind) => {
  it('works even when the product uses CamelCasePlugin for its own tables', async () => {
    const database = await openTestDatabase(kind);
    try {
      const auth = createWebAuth({ db: database.db.withPlugin(new CamelCasePlugin()), argon2: cheapArgon2 });
      const user = await auth.users.create({
        username: 'camel',
        password: 'a long enough password',
        role: 'admin',
      });
      expect(user.createdAt).toBeGreaterThan(0);
      const result = await auth.login({
        username: 'camel',
        password: 'a long enough password',
        client: '127.0.0.1',
      });
      if (result.kind !== 'ok') throw new Error(result.kind);
      expect((await auth.sessions.validate(result.token))?.user.username).toBe('camel');
    } finally {
      await database.close();
    }
  });
});

describe('settings', () => {
  it.each([
    [{ sessions: { idleTimeoutSeconds: 0 } }, 'sessions.idleTimeoutSeconds'],
    [{ throttle: { maxAttempts: Number.NaN } }, 'throttle.maxAttempts'],
    [{ throttle: { lockout: { lockSeconds: -5 } } }, 'throttle.lockout.lockSeconds'],
    [{ argon2: { memoryCost: 1.5 } }, 'argon2.memoryCost'],
    [{ passwordPolicy: { minLength: '12' as unknown as number } }, 'passwordPolicy.minLength'],
  ])('refuses a bad option at construction, naming it (%j)', async (options, name) => {
    const database = await openTestDatabase('sqlite');
    try {
      expect(() => createWebAuth({ db: database.db, ...options })).toThrow(name);
    } finally {
      await database.close();
    }
  });

  it('fills defaults and accepts 0 for the cache', async () => {
    const database = await openTestDatabase('sqlite');
    try {
      const auth = createWebAuth({ db: database.db, sessions: { cacheSeconds: 0 } });
      expect(auth.settings.sessions).toEqual({
        idleTimeoutSeconds: 1_800,
        absoluteLifetimeSeconds: 43_200,
        touchIntervalSeconds: 60,
        cacheSeconds: 0,
        cacheMaxEntries: 10_000,
      });
      expect(auth.settings.throttle.lockout).toEqual({
        usernameFailures: 10,
        clientFailures: 30,
        windowSeconds: 900,
        lockSeconds: 900,
      });
    } finally {
      await database.close();
    }
  });
});
