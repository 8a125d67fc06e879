/**
 * @module The one error class the library throws for bad input, with a stable code a product maps
 * to its own error envelope (all of them are the caller's fault: 400/404/409, never a 500).
 */

export type WebAuthErrorCode =
  | 'USERNAME_INVALID'
  | 'USERNAME_TAKEN'
  | 'PASSWORD_TOO_SHORT'
  | 'PASSWORD_TOO_LONG'
  | 'ROLE_INVALID'
  | 'DISPLAY_NAME_INVALID'
  | 'USER_NOT_FOUND'
  /** The change would leave no enabled user of a role the caller must keep (the last admin). */
  | 'LAST_OF_ROLE';

export class WebAuthError extends Error {
  override readonly name = 'WebAuthError';
  constructor(
    readonly code: WebAuthErrorCode,
    message: string,
  ) {
    super(message);
  }
}
