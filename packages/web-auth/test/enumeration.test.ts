/**
 * @module No user enumeration by timing: every sign-in that reaches the password check costs
 * exactly one argon2id verification, whether the username exists, is malformed, or has the wrong
 * password; an oversized password costs none, for anyone. The real @node-rs/argon2 runs; the
 * test only counts its calls.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createWebAuth, type WebAuth } from '../src/index.js';
import { cheapArgon2 } from './support/clock.js';
import { openTestDatabase, type TestDatabase } from './support/databases.js';

const calls = vi.hoisted(() => ({ verify: 0 }));

vi.mock('@node-rs/argon2', async (importOriginal) => {
  const original = await importOriginal<typeof import('@node-rs/argon2')>();
  return {
    ...original,
    verify: (...args: Parameters<typeof original.verify>) => {
      calls.verify++;
      return original.verify(...args);
    },
  };
});

describe('argon2 work per sign-in', () => {
  let database: TestDatabase;
  let auth: WebAuth;
  const password = 'the right password';

  beforeAll(async () => {
    database = await openTestDatabase('sqlite');
    auth = createWebAuth({ db: database.db, argon2: cheapArgon2, throttle: { maxAttempts: 1_000 } });
    await auth.users.create({ username: 'kim', password, role: 'viewer' });
  });
  afterAll(async () => database?.close());
  beforeEach(() => {
    calls.verify = 0;
  });

  it.each([
    ['a known user, right password', 'kim', password, 'ok'],
    ['a known user, wrong password', 'kim', 'the wrong password', 'invalid_credentials'],
    ['an unknown user', 'nobody-here', password, 'invalid_credentials'],
    ['a malformed username', '<script>', password, 'invalid_credentials'],
  ])('%s: one verification', async (_, username, attempt, kind) => {
    expect((await auth.login({ username, password: attempt, client: '192.0.2.1' })).kind).toBe(kind);
    expect(calls.verify).toBe(1);
  });

  it('an oversized password: no verification, whoever the user', async () => {
    for (const username of ['kim', 'nobody-here']) {
      expect((await auth.login({ username, password: 'x'.repeat(2_000), client: '192.0.2.1' })).kind).toBe(
        'invalid_credentials',
      );
    }
    expect(calls.verify).toBe(0);
  });
});
