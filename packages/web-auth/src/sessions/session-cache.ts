/**
 * @module An optional in-process cache of validated sessions (token hash -> user and session), so a
 * request can skip the database lookup for `cacheSeconds`. Bounded (least recently used entries
 * go first) and forgotten at once on every change this process makes: logout, ending a user's
 * sessions, and any change to the user (role, display name, disabled, password). A change made by
 * ANOTHER process on the same database is seen within `cacheSeconds`.
 */
import type { User } from '../users/user-store.js';
import type { Session } from './session-store.js';

interface CachedSession {
  user: User;
  session: Session;
  /** The session's CSRF token, derived once instead of an HMAC per request. */
  csrf: string;
  cachedAt: number;
}

export class SessionCache {
  readonly #byTokenHash = new Map<string, CachedSession>();
  readonly #tokenHashesByUser = new Map<string, Set<string>>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
    private readonly now: () => number,
  ) {}

  get enabled(): boolean {
    return this.ttlMs > 0 && this.maxEntries > 0;
  }

  /** A fresh entry (younger than the TTL), refreshed as most recently used; undefined otherwise. */
  get(tokenHash: string): CachedSession | undefined {
    const entry = this.#byTokenHash.get(tokenHash);
    if (!entry) return undefined;
    this.#byTokenHash.delete(tokenHash);
    if (this.now() - entry.cachedAt >= this.ttlMs) {
      this.#unlinkUser(entry.user.id, tokenHash);
      return undefined;
    }
    this.#byTokenHash.set(tokenHash, entry);
    return entry;
  }

  set(tokenHash: string, user: User, session: Session, csrf: string): void {
    if (!this.enabled) return;
    this.forgetToken(tokenHash);
    this.#byTokenHash.set(tokenHash, { user, session, csrf, cachedAt: this.now() });
    const hashes = this.#tokenHashesByUser.get(user.id) ?? new Set<string>();
    hashes.add(tokenHash);
    this.#tokenHashesByUser.set(user.id, hashes);
    if (this.#byTokenHash.size > this.maxEntries) {
      const [oldestHash, oldest] = this.#byTokenHash.entries().next().value as [string, CachedSession];
      this.forgetToken(oldestHash);
      this.#unlinkUser(oldest.user.id, oldestHash);
    }
  }

  forgetToken(tokenHash: string): void {
    const entry = this.#byTokenHash.get(tokenHash);
    if (!entry) return;
    this.#byTokenHash.delete(tokenHash);
    this.#unlinkUser(entry.user.id, tokenHash);
  }

  forgetUser(userId: string): void {
    for (const tokenHash of this.#tokenHashesByUser.get(userId) ?? []) this.#byTokenHash.delete(tokenHash);
    this.#tokenHashesByUser.delete(userId);
  }

  get size(): number {
    return this.#byTokenHash.size;
  }

  #unlinkUser(userId: string, tokenHash: string): void {
    const hashes = this.#tokenHashesByUser.get(userId);
    hashes?.delete(tokenHash);
    if (hashes?.size === 0) this.#tokenHashesByUser.delete(userId);
  }
}
