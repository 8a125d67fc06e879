/**
 * @module argon2id password hashing (`@node-rs/argon2`, PHC strings) with stated parameters, a
 * rehash check for when they change, and a dummy verification so an unknown user costs as much as a
 * known one (no user enumeration by timing).
 */
import { randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

/** `Algorithm.Argon2id` of @node-rs/argon2 (a const enum, which verbatimModuleSyntax cannot import). */
const argon2id = 2;

export interface Argon2Parameters {
  /** Memory in KiB; default 19,456 (19 MiB, the OWASP minimum for argon2id). */
  memoryCost: number;
  /** Passes; default 2. */
  timeCost: number;
  /** Lanes; default 1. */
  parallelism: number;
}

/** OWASP Password Storage Cheat Sheet, argon2id: m=19 MiB, t=2, p=1. */
export const defaultArgon2Parameters: Readonly<Argon2Parameters> = Object.freeze({
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
});

/** Longest PHC string accepted from storage before parsing it (a real one is about 100 characters). */
const maxStoredHashLength = 512;

/** Hashes with a fresh 16-byte salt; returns the PHC string (`$argon2id$v=19$m=...,t=...,p=...$salt$hash`). */
export function hashPassword(password: string, parameters: Argon2Parameters = defaultArgon2Parameters) {
  return hash(password.normalize('NFKC'), { algorithm: argon2id, ...parameters });
}

/** True when `password` matches the PHC string; false (never a throw) for a malformed stored hash. */
export async function verifyPassword(storedHash: string, password: string): Promise<boolean> {
  if (storedHash.length > maxStoredHashLength || !storedHash.startsWith('$argon2id$')) return false;
  try {
    return await verify(storedHash, password.normalize('NFKC'));
  } catch {
    return false;
  }
}

/** The parameters recorded in a PHC string, or undefined when it is not one of ours. */
export function parseArgon2Parameters(storedHash: string): Argon2Parameters | undefined {
  if (storedHash.length > maxStoredHashLength) return undefined;
  const [empty, algorithm, , list] = storedHash.split('$');
  if (empty !== '' || algorithm !== 'argon2id' || list === undefined) return undefined;
  const values = new Map(list.split(',').map((pair) => pair.split('=', 2) as [string, string]));
  const read = (key: string) => {
    const value = Number(values.get(key));
    return Number.isSafeInteger(value) ? value : undefined;
  };
  const memoryCost = read('m');
  const timeCost = read('t');
  const parallelism = read('p');
  if (memoryCost === undefined || timeCost === undefined || parallelism === undefined) return undefined;
  return { memoryCost, timeCost, parallelism };
}

/** True when a stored hash was made with other parameters than `parameters` (rehash on next login). */
export function needsRehash(storedHash: string, parameters: Argon2Parameters = defaultArgon2Parameters) {
  const stored = parseArgon2Parameters(storedHash);
  return (
    stored === undefined ||
    stored.memoryCost !== parameters.memoryCost ||
    stored.timeCost !== parameters.timeCost ||
    stored.parallelism !== parameters.parallelism
  );
}

/**
 * A verifier that spends one full argon2id verification on a throw-away hash: call it when the
 * user does not exist so the answer takes as long as a wrong password for a real user.
 */
export function createDummyVerifier(parameters: Argon2Parameters): () => Promise<void> {
  let dummy: Promise<string> | undefined;
  return async () => {
    dummy ??= hashPassword(randomBytes(16).toString('base64url'), parameters);
    await verifyPassword(await dummy, 'not the password');
  };
}
