/**
 * @module Users: create (validated username, policy-checked argon2id password), look up by id or
 * case-insensitive username, list, count, and change role, display name, disabled flag or password.
 * Disabling a user ends every session they have; changing their password ends every session but
 * the one the caller names (the user changing their own password stays signed in there).
 */
import { randomUUID } from 'node:crypto';
import type { StoreContext } from '../context.js';
import { WebAuthError } from '../errors.js';
import { type Argon2Parameters, hashPassword } from '../passwords/argon2.js';
import { assertPasswordPolicy, type PasswordPolicy } from '../passwords/policy.js';
import { isUniqueViolation } from '../schema/dialect.js';
import { serializedTransaction } from '../schema/serialized.js';
import { type AuthUserRow, toNumber } from '../schema/tables.js';
import type { SessionCache } from '../sessions/session-cache.js';
import { assertDisplayName, assertRole, assertUsername, isValidUsername, usernameKey } from './fields.js';

export interface User {
  id: string;
  username: string;
  displayName: string | null;
  role: string;
  disabled: boolean;
  /** Epoch milliseconds. */
  createdAt: number;
  updatedAt: number;
  passwordChangedAt: number;
}

export interface NewUser {
  username: string;
  password: string;
  role: string;
  displayName?: string | null;
  disabled?: boolean;
}

export interface ListUsersOptions {
  /** 1-1,000; default 100. Ordered by username. */
  limit?: number;
  offset?: number;
}

export interface UserStore {
  /** Throws WebAuthError USERNAME_INVALID / USERNAME_TAKEN / PASSWORD_TOO_SHORT / PASSWORD_TOO_LONG / ROLE_INVALID. */
  create(user: NewUser): Promise<User>;
  /**
   * Creates the user only while there is no user at all (first-run setup, first admin): of any
   * number of concurrent calls, in any number of processes, exactly one gets the User, the others
   * undefined. Validation errors as `create`.
   */
  createFirst(user: NewUser): Promise<User | undefined>;
  getById(id: string): Promise<User | undefined>;
  /** Case-insensitive. */
  getByUsername(username: string): Promise<User | undefined>;
  list(options?: ListUsersOptions): Promise<User[]>;
  count(): Promise<number>;
  /**
   * Each throws WebAuthError USER_NOT_FOUND for an unknown id. With `keepEnabled`, a role change
   * or disabling that would leave no enabled user of that role throws LAST_OF_ROLE and changes
   * nothing (checked and written in one serialized transaction, so two concurrent changes cannot
   * both remove "the other" last admin).
   */
  setRole(id: string, role: string, options?: KeepEnabled): Promise<User>;
  setDisplayName(id: string, displayName: string | null): Promise<User>;
  /** Disabling ends every session of the user. */
  setDisabled(id: string, disabled: boolean, options?: KeepEnabled): Promise<User>;
  /**
   * Checks the policy, stores a new hash and ends every session of the user except
   * `keepSessionId` (the session making the change, when the user changes their own password).
   */
  setPassword(id: string, password: string, options?: { keepSessionId?: string }): Promise<User>;
}

export interface KeepEnabled {
  /** A role that must keep at least one enabled user after the change. */
  keepEnabled?: string;
}

/** Internal: what login needs beyond the public surface (the stored hash). */
interface UserRecord {
  user: User;
  passwordHash: string;
}

export function toUser(row: AuthUserRow): User {
  return {
    id: row.id,
    username: row.username,
    displayName: row.display_name,
    role: row.role,
    disabled: toNumber(row.disabled) !== 0,
    createdAt: toNumber(row.created_at),
    updatedAt: toNumber(row.updated_at),
    passwordChangedAt: toNumber(row.password_changed_at),
  };
}

/** Reads a user with their password hash (for login); undefined for unknown or malformed names. */
export async function findUserRecord(
  context: StoreContext,
  username: string,
): Promise<UserRecord | undefined> {
  if (!isValidUsername(username)) return undefined;
  const row = await context.db
    .selectFrom('auth_users')
    .selectAll()
    .where('username_key', '=', usernameKey(username))
    .executeTakeFirst();
  return row && { user: toUser(row), passwordHash: row.password_hash };
}

interface UserStoreOptions {
  argon2: Argon2Parameters;
  policy: PasswordPolicy;
  /** Forgotten for a user on every change to them, so cached sessions never show stale roles. */
  sessionCache: SessionCache;
}

export function createUserStore(context: StoreContext, options: UserStoreOptions): UserStore {
  const { db, now } = context;

  /** Ids are UUIDs: anything else is no user, without asking the database. */
  const isPlausibleId = (id: unknown): id is string => typeof id === 'string' && id.length <= 64;

  async function getById(id: string): Promise<User | undefined> {
    if (!isPlausibleId(id)) return undefined;
    const row = await db.selectFrom('auth_users').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toUser(row);
  }

  /**
   * `endSessions`: false, or end the user's sessions but the one named by `except`. `keepEnabled`:
   * refuse (LAST_OF_ROLE, rolled back) a change that leaves no enabled user of that role.
   */
  async function update(
    id: string,
    changes: Partial<AuthUserRow>,
    endSessions: false | { except?: string } = false,
    keepEnabled?: string,
  ): Promise<User> {
    if (!isPlausibleId(id)) throw new WebAuthError('USER_NOT_FOUND', 'no such user');
    const updated = await serializedTransaction(context, 'auth_users', async (trx) => {
      const result = await trx
        .updateTable('auth_users')
        .set({ ...changes, updated_at: now() })
        .where('id', '=', id)
        .executeTakeFirst();
      if (result.numUpdatedRows === 0n) return false;
      if (keepEnabled !== undefined) {
        const remaining = await trx
          .selectFrom('auth_users')
          .select('id')
          .where('role', '=', keepEnabled)
          .where('disabled', '=', 0)
          .limit(1)
          .executeTakeFirst();
        if (!remaining)
          throw new WebAuthError(
            'LAST_OF_ROLE',
            `this would leave no enabled user with the role ${keepEnabled}`,
          );
      }
      if (endSessions) {
        let ending = trx.deleteFrom('auth_sessions').where('user_id', '=', id);
        if (endSessions.except !== undefined) ending = ending.where('id', '<>', endSessions.except);
        await ending.execute();
      }
      return true;
    });
    options.sessionCache.forgetUser(id);
    const user = updated ? await getById(id) : undefined;
    if (!user) throw new WebAuthError('USER_NOT_FOUND', 'no such user');
    return user;
  }

  /** Validates and hashes: everything slow happens before any lock is taken. */
  async function newUserRow(input: NewUser): Promise<AuthUserRow> {
    assertUsername(input.username);
    assertRole(input.role);
    const displayName = input.displayName ?? null;
    assertDisplayName(displayName);
    assertPasswordPolicy(input.password, options.policy);
    const passwordHash = await hashPassword(input.password, options.argon2);
    const at = now();
    return {
      id: randomUUID(),
      username: input.username,
      username_key: usernameKey(input.username),
      display_name: displayName,
      role: input.role,
      disabled: input.disabled ? 1 : 0,
      password_hash: passwordHash,
      created_at: at,
      updated_at: at,
      password_changed_at: at,
    };
  }

  return {
    async create(input) {
      const row = await newUserRow(input);
      try {
        await db.insertInto('auth_users').values(row).execute();
      } catch (error) {
        if (isUniqueViolation(error)) throw new WebAuthError('USERNAME_TAKEN', 'username is already taken');
        throw error;
      }
      return toUser(row);
    },
    async createFirst(input) {
      const row = await newUserRow(input);
      return serializedTransaction(context, 'auth_users', async (trx) => {
        const existing = await trx.selectFrom('auth_users').select('id').limit(1).executeTakeFirst();
        if (existing) return undefined;
        await trx.insertInto('auth_users').values(row).execute();
        return toUser(row);
      });
    },
    getById,
    async getByUsername(username) {
      return (await findUserRecord(context, username))?.user;
    },
    async list(listOptions = {}) {
      const limit = Math.min(Math.max(Math.trunc(listOptions.limit ?? 100), 1), 1000);
      const offset = Math.max(Math.trunc(listOptions.offset ?? 0), 0);
      const rows = await db
        .selectFrom('auth_users')
        .selectAll()
        .orderBy('username_key')
        .limit(limit)
        .offset(offset)
        .execute();
      return rows.map(toUser);
    },
    async count() {
      const row = await db
        .selectFrom('auth_users')
        .select((eb) => eb.fn.countAll().as('count'))
        .executeTakeFirstOrThrow();
      return toNumber(row.count);
    },
    async setRole(id, role, roleOptions = {}) {
      assertRole(role);
      return update(id, { role }, false, roleOptions.keepEnabled);
    },
    async setDisplayName(id, displayName) {
      assertDisplayName(displayName);
      return update(id, { display_name: displayName });
    },
    async setDisabled(id, disabled, disabledOptions = {}) {
      return update(id, { disabled: disabled ? 1 : 0 }, disabled && {}, disabledOptions.keepEnabled);
    },
    async setPassword(id, password, passwordOptions = {}) {
      assertPasswordPolicy(password, options.policy);
      const passwordHash = await hashPassword(password, options.argon2);
      return update(
        id,
        { password_hash: passwordHash, password_changed_at: now() },
        { except: passwordOptions.keepSessionId },
      );
    },
  };
}
