/**
 * @module argon2id with the default parameters (m=19 MiB, t=2, p=1): PHC format, verification,
 * NFKC normalisation, malformed stored hashes, the rehash check, and the password policy.
 */
import { describe, expect, it } from 'vitest';
import {
  assertPasswordPolicy,
  defaultArgon2Parameters,
  exceedsMaxBytes,
  hashPassword,
  needsRehash,
  parseArgon2Parameters,
  verifyPassword,
} from '../src/index.js';

describe('argon2id passwords', () => {
  it('hashes with the stated defaults and a fresh salt, and verifies', async () => {
    const first = await hashPassword('correct horse battery staple');
    const second = await hashPassword('correct horse battery staple');
    expect(first).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(first).not.toBe(second);
    expect(await verifyPassword(first, 'correct horse battery staple')).toBe(true);
    expect(await verifyPassword(first, 'correct horse battery stapl')).toBe(false);
    expect(defaultArgon2Parameters).toEqual({ memoryCost: 19_456, timeCost: 2, parallelism: 1 });
  });

  it('treats canonically equivalent Unicode spellings as the same password (NFKC)', async () => {
    const composed = 'caf\u00e9 au lait noir';
    const decomposed = 'cafe\u0301 au lait noir';
    const stored = await hashPassword(composed, { memoryCost: 1024, timeCost: 1, parallelism: 1 });
    expect(await verifyPassword(stored, decomposed)).toBe(true);
  });

  it('answers false, never throws, for malformed or foreign stored hashes', async () => {
    expect(await verifyPassword('', 'x')).toBe(false);
    expect(await verifyPassword('$argon2id$garbage', 'x')).toBe(false);
    expect(await verifyPassword('$2b$10$abcdefghijklmnopqrstuv', 'x')).toBe(false);
    expect(await verifyPassword(`$argon2id$${'a'.repeat(10_000)}`, 'x')).toBe(false);
  });

  it('reads the parameters of a PHC string and says when a rehash is due', async () => {
    const cheap = await hashPassword('a long enough password', {
      memoryCost: 1024,
      timeCost: 1,
      parallelism: 1,
    });
    expect(parseArgon2Parameters(cheap)).toEqual({ memoryCost: 1024, timeCost: 1, parallelism: 1 });
    expect(needsRehash(cheap)).toBe(true);
    expect(needsRehash(cheap, { memoryCost: 1024, timeCost: 1, parallelism: 1 })).toBe(false);
    expect(needsRehash('not a hash')).toBe(true);
    expect(parseArgon2Parameters('$argon2i$v=19$m=1,t=1,p=1$x$y')).toBeUndefined();
  });
});

describe('password policy', () => {
  it('requires 12 characters by default and a configurable minimum', () => {
    expect(() => assertPasswordPolicy('elevenchars')).toThrow(/at least 12 characters/);
    expect(() => assertPasswordPolicy('twelve chars')).not.toThrow();
    expect(() => assertPasswordPolicy('twelve chars', { minLength: 16, maxBytes: 1024 })).toThrow(
      expect.objectContaining({ code: 'PASSWORD_TOO_SHORT' }),
    );
  });

  it('bounds the length in UTF-8 bytes (1,024 by default)', () => {
    expect(() => assertPasswordPolicy('x'.repeat(1024))).not.toThrow();
    expect(() => assertPasswordPolicy('x'.repeat(1025))).toThrow(
      expect.objectContaining({ code: 'PASSWORD_TOO_LONG' }),
    );
    // 342 three-byte characters are 1,026 bytes though only 342 UTF-16 units.
    expect(exceedsMaxBytes('€'.repeat(341))).toBe(false);
    expect(exceedsMaxBytes('€'.repeat(342))).toBe(true);
    expect(() => assertPasswordPolicy(12 as unknown as string)).toThrow();
  });
});
