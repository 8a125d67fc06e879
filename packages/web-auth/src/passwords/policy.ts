/**
 * @module The password policy: a minimum length in characters (default 12) and a maximum length in
 * UTF-8 bytes (default 1,024) so a huge password cannot burn CPU in the hash.
 */
import { WebAuthError } from '../errors.js';

export interface PasswordPolicy {
  /** Fewest characters (Unicode code points); default 12. */
  minLength: number;
  /** Most UTF-8 bytes; default 1,024. */
  maxBytes: number;
}

export const defaultPasswordPolicy: Readonly<PasswordPolicy> = Object.freeze({
  minLength: 12,
  maxBytes: 1024,
});

/** True when the password is too long to be worth hashing (checked before any argon2 work). */
export function exceedsMaxBytes(password: string, policy: PasswordPolicy = defaultPasswordPolicy): boolean {
  // A UTF-8 character is at most 4 bytes, so only long strings need the exact count.
  return password.length * 3 > policy.maxBytes && Buffer.byteLength(password, 'utf8') > policy.maxBytes;
}

/** Throws WebAuthError `PASSWORD_TOO_SHORT` / `PASSWORD_TOO_LONG` when the password breaks the policy. */
export function assertPasswordPolicy(password: string, policy: PasswordPolicy = defaultPasswordPolicy): void {
  if (typeof password !== 'string' || exceedsMaxBytes(password, policy)) {
    throw new WebAuthError('PASSWORD_TOO_LONG', `password must be at most ${policy.maxBytes} bytes`);
  }
  let characters = 0;
  for (const _ of password) characters++;
  if (characters < policy.minLength) {
    throw new WebAuthError('PASSWORD_TOO_SHORT', `password must be at least ${policy.minLength} characters`);
  }
}
