/**
 * @module The two secrets of pairing. The pairing code is what a person copies from one daemon to
 * the other: 10 symbols of Crockford's base32 (50 bits; no I, L, O, U, so nothing is misread),
 * shown as `XXXXX-XXXXX`, case, dashes and spaces ignored on input. The node credential is what
 * a paired daemon presents afterwards: `wsn_` and 32 random bytes in base64url. Both are stored
 * only as SHA-256 (fast hashing is right for random secrets of this strength).
 */
import { createHash, randomBytes, randomInt } from 'node:crypto';
import { constantTimeEqual } from '@suite/web-auth';

const crockford = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const codeSymbols = 10;
const credentialPrefix = 'wsn_';

export function newPairingCode(): string {
  let code = '';
  // randomInt is unbiased, unlike a byte taken modulo 32 would be for other alphabet sizes.
  for (let index = 0; index < codeSymbols; index++) code += crockford[randomInt(crockford.length)];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/** The code as typed, in canonical form (Crockford: O is 0, I and L are 1); undefined if malformed. */
export function canonicalPairingCode(input: string): string | undefined {
  const symbols = input.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
  if (symbols.length !== codeSymbols || [...symbols].some((symbol) => !crockford.includes(symbol)))
    return undefined;
  return symbols;
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** Constant time, so the answer's timing says nothing about how much of a guess was right. */
export function pairingCodeMatches(input: string, storedHash: string): boolean {
  const canonical = canonicalPairingCode(input);
  return constantTimeEqual(canonical === undefined ? '' : hashSecret(canonical), storedHash);
}

export function newNodeCredential(): string {
  return credentialPrefix + randomBytes(32).toString('base64url');
}

/** `wsn_` and 43 base64url characters; checked before any hashing or database work. */
export function isWellFormedCredential(value: string): boolean {
  return /^wsn_[A-Za-z0-9_-]{43}$/.test(value);
}
