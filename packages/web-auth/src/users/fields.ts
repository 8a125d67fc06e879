/**
 * @module Validation of the user fields the library owns: usernames (3-64 characters of a safe
 * charset), roles (an opaque label the product validates) and display names. Plain loops, no
 * regular expressions, so no input can make them backtrack.
 */
import { WebAuthError } from '../errors.js';

export const usernameMinLength = 3;
export const usernameMaxLength = 64;
const roleMaxLength = 64;
const displayNameMaxLength = 128;

function isAsciiAlphanumeric(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

/** `.`, `_`, `-` and `@` are allowed after the first character, which must be a letter or digit. */
function isUsernameCharacter(code: number): boolean {
  return isAsciiAlphanumeric(code) || code === 46 || code === 95 || code === 45 || code === 64;
}

/** True for 3-64 characters of `[A-Za-z0-9._@-]` starting with a letter or digit. */
export function isValidUsername(username: unknown): username is string {
  if (typeof username !== 'string') return false;
  if (username.length < usernameMinLength || username.length > usernameMaxLength) return false;
  if (!isAsciiAlphanumeric(username.charCodeAt(0))) return false;
  for (let index = 1; index < username.length; index++) {
    if (!isUsernameCharacter(username.charCodeAt(index))) return false;
  }
  return true;
}

export function assertUsername(username: unknown): asserts username is string {
  if (!isValidUsername(username)) {
    throw new WebAuthError(
      'USERNAME_INVALID',
      `username must be ${usernameMinLength}-${usernameMaxLength} characters of letters, digits, '.', '_', '-' or '@', starting with a letter or digit`,
    );
  }
}

/** The case-insensitive identity of a username (usernames are ASCII, so this is exact). */
export function usernameKey(username: string): string {
  return username.toLowerCase();
}

/** Roles are 1-64 printable ASCII characters; which roles exist is the product's business. */
export function assertRole(role: unknown): asserts role is string {
  let valid = typeof role === 'string' && role.length > 0 && role.length <= roleMaxLength;
  for (let index = 0; valid && index < (role as string).length; index++) {
    const code = (role as string).charCodeAt(index);
    valid = code > 32 && code < 127;
  }
  if (!valid)
    throw new WebAuthError('ROLE_INVALID', `role must be 1-${roleMaxLength} printable ASCII characters`);
}

/** Display names: up to 128 characters, no control characters; null clears it. */
export function assertDisplayName(displayName: unknown): asserts displayName is string | null {
  if (displayName === null) return;
  let valid = typeof displayName === 'string' && displayName.length <= displayNameMaxLength;
  for (let index = 0; valid && index < (displayName as string).length; index++) {
    const code = (displayName as string).charCodeAt(index);
    valid = code >= 32 && code !== 127;
  }
  if (!valid) {
    throw new WebAuthError(
      'DISPLAY_NAME_INVALID',
      `display name must be at most ${displayNameMaxLength} characters without control characters`,
    );
  }
}
