/**
 * @module Tests: the shared JSON view of a user holds exactly the six wire fields.
 */
import { expect, test } from 'vitest';
import { type User, userView } from '../src/index.js';

test('a user is answered with six snake_case fields and an ISO-8601 UTC creation time', () => {
  const user: User = {
    id: '7f8c2a',
    username: 'ada',
    displayName: null,
    role: 'admin',
    disabled: true,
    createdAt: Date.UTC(2026, 10, 24, 0, 30, 43, 120),
    updatedAt: Date.UTC(2026, 10, 25),
    passwordChangedAt: Date.UTC(2026, 10, 25),
  };
  const extra = { ...user, passwordHash: '$argon2id$v=19$secret' } as User;
  expect(JSON.stringify(userView(extra))).toBe(
    '{"id":"7f8c2a","username":"ada","display_name":null,"role":"admin","disabled":true,"created_at":"2026-11-24T00:30:43.120Z"}',
  );
});
