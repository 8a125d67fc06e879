/**
 * @module The storage contract of the vote ledger: one row per accepted vote, keyed per list, and
 * the voters who opted in to reminders. Memory, SQLite and PostgreSQL stores implement it.
 */

/** One accepted vote as stored. `key` is unique per list (the deduplication key). */
export interface LedgerEntry {
  list: string;
  key: string;
  userId: string;
  userName: string | null;
  weight: number;
  /** Epoch milliseconds the vote was received. */
  at: number;
  /** Consecutive votes of this user on this list, this one included. */
  streak: number;
  /** Whether the `reminder` for this vote was emitted. */
  reminded: boolean;
}

/** Filter of `votes()`: every field optional, combined with AND. */
export interface VoteQuery {
  since?: Date | number;
  userId?: string;
  list?: string;
}

/** A list whose votes received at or before `cutoff` (epoch ms) are due a reminder. */
export interface ReminderCutoff {
  list: string;
  cutoff: number;
}

export interface LedgerStore {
  /** Inserts the entry; false when the list already holds that key (a retry or replay). */
  add(entry: LedgerEntry): Promise<boolean>;
  /** The user's most recent vote on the list, or null. */
  latest(list: string, userId: string): Promise<LedgerEntry | null>;
  /** Matching votes, oldest first. */
  query(filter: VoteQuery): Promise<LedgerEntry[]>;
  /**
   * Claims the reminders due, in one query: for each opted-in user and each given list, the user's
   * latest vote on it when it was received at or before that list's `cutoff` and is not reminded
   * yet. Those votes are marked reminded and returned; concurrent callers never claim one twice.
   */
  claimReminders(due: readonly ReminderCutoff[]): Promise<LedgerEntry[]>;
  setOptIn(userId: string, optedIn: boolean): Promise<void>;
  optedIn(): Promise<string[]>;
  close(): Promise<void>;
}

export const sinceMs = (since: Date | number | undefined): number =>
  since === undefined ? Number.NEGATIVE_INFINITY : typeof since === 'number' ? since : since.getTime();
