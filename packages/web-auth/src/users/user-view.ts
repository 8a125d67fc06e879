/**
 * @module The JSON a product's API answers for a user: snake_case keys and an ISO-8601 UTC
 * creation time, so every product shows a user the same way. Only these six fields: the
 * password hash never leaves the store, and update/password-change times stay internal.
 */
import type { User } from './user-store.js';

export interface UserView {
  id: string;
  username: string;
  display_name: string | null;
  role: string;
  disabled: boolean;
  /** ISO-8601 UTC, e.g. `2026-11-24T00:30:43.000Z`. */
  created_at: string;
}

export function userView(user: User): UserView {
  return {
    id: user.id,
    username: user.username,
    display_name: user.displayName,
    role: user.role,
    disabled: user.disabled,
    created_at: new Date(user.createdAt).toISOString(),
  };
}
