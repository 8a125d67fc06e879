/**
 * @module VoteLedger: every accepted vote once, per-user streaks, when a voter can vote again,
 * CSV export and reminders for voters who opted in.
 */
import { BotlistsError } from '../errors.js';
import { TypedEmitter } from '../events/typed-emitter.js';
import { asId, getPath } from '../reading/field-paths.js';
import type { BotlistRecord, UniversalVote } from '../types.js';
import { toCsvText } from './csv.js';
import type { LedgerEntry, LedgerStore, VoteQuery } from './ledger-store.js';
import { MemoryLedgerStore } from './memory-store.js';

const HOUR_MS = 3_600_000;
/** Lists without a documented cooldown: two votes of one user closer than this are one vote delivered twice. */
const DEFAULT_DEDUP_WINDOW_MS = HOUR_MS;
const DEFAULT_REMINDER_CHECK_MS = 60_000;

export interface LedgerOptions {
  /** Where votes are kept (default: in memory). */
  store?: LedgerStore;
  /** Deduplication window for lists without a cooldown or a vote id (default 1 h). */
  dedupWindowMs?: number;
  /** How often opted-in voters are checked for a `reminder` (default 60 s; 0 = only `checkReminders()`). */
  reminderCheckMs?: number;
}

/** A vote as the ledger returns it. */
export interface LedgerVote {
  list: string;
  userId: string;
  userName: string | null;
  weight: number;
  at: Date;
  streak: number;
}

/** `reminder` event: an opted-in voter can vote on `list` again since `at`. */
export interface ReminderEvent {
  list: string;
  userId: string;
  at: Date;
}

interface LedgerEvents {
  recorded: LedgerVote;
  reminder: ReminderEvent;
  error: Error;
}

/** Key prefix of a vote stored under its list's own id. */
const LIST_ID_KEY = 'id:';

/**
 * Whether a vote close in time to `recorded` is the same vote: always, unless both carry their
 * list's ids (then only the same id is, and the store's key decides that).
 */
const sameVoteUnlessBothIds = (recorded: LedgerEntry, listVoteId: string | null): boolean =>
  listVoteId === null || !recorded.key.startsWith(LIST_ID_KEY);

const toVote = (e: LedgerEntry): LedgerVote => ({
  list: e.list,
  userId: e.userId,
  userName: e.userName,
  weight: e.weight,
  at: new Date(e.at),
  streak: e.streak,
});

export class VoteLedger extends TypedEmitter<LedgerEvents> {
  readonly store: LedgerStore;
  private readonly lists: () => readonly BotlistRecord[];
  private readonly now: () => number;
  private readonly dedupWindowMs: number;
  private reminderTimer: ReturnType<typeof setInterval> | null = null;
  /** One record at a time per list and user: the streak and the key read the previous vote. */
  private readonly pending = new Map<string, Promise<unknown>>();

  constructor(options: LedgerOptions, lists: () => readonly BotlistRecord[], now: () => number = Date.now) {
    super();
    this.store = options.store ?? new MemoryLedgerStore();
    this.lists = lists;
    this.now = now;
    this.dedupWindowMs = options.dedupWindowMs ?? DEFAULT_DEDUP_WINDOW_MS;
    const every = options.reminderCheckMs ?? DEFAULT_REMINDER_CHECK_MS;
    if (every > 0) {
      this.reminderTimer = setInterval(() => {
        this.checkReminders().catch((error: Error) => this.emitError(error));
      }, every);
      this.reminderTimer.unref();
    }
  }

  private list(id: string): BotlistRecord | undefined {
    return this.lists().find((l) => l.id === id);
  }

  /** The list's cooldown in ms, or null when the registry records none. */
  cooldownMs(list: string): number | null {
    const hours = this.list(list)?.voteCooldownHours;
    return typeof hours === 'number' && hours > 0 ? hours * HOUR_MS : null;
  }

  /** A streak continues while each vote comes within two cooldowns (a day without one) of the last. */
  private streakWindowMs(list: string): number {
    return 2 * (this.cooldownMs(list) ?? 24 * HOUR_MS);
  }

  /**
   * Records an accepted vote once; resolves false for a test vote or a copy of a recorded one.
   * The key is the list's own vote id when it sends one (top.gg v1 `data.id`); otherwise a vote of
   * the same user on the same list within the cooldown (or `dedupWindowMs`) is the same vote
   * delivered again, and a new one is keyed by the previous vote's time, so two concurrent copies
   * race for one key and only one is stored. A vote with an id is also a copy of a vote recorded
   * without one within the window (a backfill from a route that sends no id).
   */
  record(vote: UniversalVote): Promise<boolean> {
    if (vote.isTest) return Promise.resolve(false);
    const slot = `${vote.listId}\n${vote.voterId}`;
    const run = (this.pending.get(slot) ?? Promise.resolve()).then(() => this.recordNow(vote));
    const settled = run.catch(() => {});
    this.pending.set(slot, settled);
    void settled.then(() => {
      if (this.pending.get(slot) === settled) this.pending.delete(slot);
    });
    return run;
  }

  /** Resolves once every vote handed to `record` so far is stored (graceful shutdown, tests). */
  async idle(): Promise<void> {
    while (this.pending.size > 0) await Promise.all(this.pending.values());
  }

  private async recordNow(vote: UniversalVote): Promise<boolean> {
    const cooldown = this.cooldownMs(vote.listId);
    const window = cooldown ?? this.dedupWindowMs;
    const idField = this.list(vote.listId)?.voteIdField;
    const listVoteId = idField ? asId(getPath(vote.raw, idField)) : null;
    const previous = await this.store.latest(vote.listId, vote.voterId);
    const gap = previous ? vote.receivedAt - previous.at : Number.POSITIVE_INFINITY;
    if (gap < 0) return this.recordOlder(vote, listVoteId, window);
    if (previous && gap < window && sameVoteUnlessBothIds(previous, listVoteId)) return false;
    return this.add(vote, {
      key: listVoteId ? `${LIST_ID_KEY}${listVoteId}` : `after:${vote.voterId}:${previous?.at ?? 0}`,
      streak: previous && gap <= this.streakWindowMs(vote.listId) ? previous.streak + 1 : 1,
    });
  }

  /**
   * A vote older than the user's latest one (a backfill, a late redelivery): a copy when a vote of
   * the user lies within the window on either side (unless both carry their list's ids); otherwise
   * stored under its own time, with a streak of 1 (streaks count in arrival order and are not
   * rewritten).
   */
  private async recordOlder(
    vote: UniversalVote,
    listVoteId: string | null,
    window: number,
  ): Promise<boolean> {
    const near = await this.store.query({
      list: vote.listId,
      userId: vote.voterId,
      since: vote.receivedAt - window,
    });
    if (near.some((e) => Math.abs(e.at - vote.receivedAt) < window && sameVoteUnlessBothIds(e, listVoteId)))
      return false;
    return this.add(vote, {
      key: listVoteId ? `${LIST_ID_KEY}${listVoteId}` : `at:${vote.voterId}:${vote.receivedAt}`,
      streak: 1,
    });
  }

  private async add(vote: UniversalVote, how: { key: string; streak: number }): Promise<boolean> {
    const entry: LedgerEntry = {
      list: vote.listId,
      key: how.key,
      userId: vote.voterId,
      userName: vote.voterName,
      weight: vote.weight,
      at: vote.receivedAt,
      streak: how.streak,
      reminded: false,
    };
    const added = await this.store.add(entry);
    if (added) this.emit('recorded', toVote(entry));
    return added;
  }

  /** When the user may vote on the list again: last recorded vote + the list's cooldown; null when either is unknown. */
  async canVoteAgainAt(list: string, userId: string): Promise<Date | null> {
    const cooldown = this.cooldownMs(list);
    if (cooldown === null) return null;
    const last = await this.store.latest(list, userId);
    return last ? new Date(last.at + cooldown) : null;
  }

  /** The user's current streak on the list (0 when it has lapsed or never started). */
  async streak(list: string, userId: string): Promise<number> {
    const last = await this.store.latest(list, userId);
    if (!last) return 0;
    return this.now() - last.at <= this.streakWindowMs(list) ? last.streak : 0;
  }

  /** Recorded votes, oldest first. */
  async votes(query: VoteQuery = {}): Promise<LedgerVote[]> {
    return (await this.store.query(query)).map(toVote);
  }

  /** Every recorded vote (or those of `query`) as RFC 4180 CSV: `list,user_id,user_name,weight,at,streak`. */
  async toCsv(query: VoteQuery = {}): Promise<string> {
    const rows = (await this.votes(query)).map((v) => [
      v.list,
      v.userId,
      v.userName,
      v.weight,
      v.at.toISOString(),
      v.streak,
    ]);
    return toCsvText([['list', 'user_id', 'user_name', 'weight', 'at', 'streak'], ...rows]);
  }

  /** Opts a voter in to (or out of) `reminder` events. */
  async remind(userId: string, optedIn = true): Promise<void> {
    if (!userId) throw new BotlistsError('remind: userId is required');
    await this.store.setOptIn(userId, optedIn);
  }

  /**
   * Emits one `reminder` per opted-in voter and list whose cooldown has passed since their last
   * vote: one store query per check, however many voters and lists (ordered by voter, then list).
   */
  async checkReminders(): Promise<ReminderEvent[]> {
    const now = this.now();
    const cooldowns = new Map<string, number>();
    for (const l of this.lists()) {
      const cooldown = this.cooldownMs(l.id);
      if (cooldown !== null) cooldowns.set(l.id, cooldown);
    }
    if (cooldowns.size === 0) return [];
    const order = [...cooldowns.keys()];
    const claimed = await this.store.claimReminders(
      order.map((list) => ({ list, cutoff: now - (cooldowns.get(list) as number) })),
    );
    const due = claimed
      .map((e) => ({
        list: e.list,
        userId: e.userId,
        at: new Date(e.at + (cooldowns.get(e.list) as number)),
      }))
      .sort((a, b) =>
        a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : order.indexOf(a.list) - order.indexOf(b.list),
      );
    for (const event of due) this.emit('reminder', event);
    return due;
  }

  private emitError(error: Error): void {
    if (this.listenerCount('error') > 0) this.emit('error', error);
  }

  /** Stops the reminder timer and closes the store. */
  async close(): Promise<void> {
    if (this.reminderTimer) clearInterval(this.reminderTimer);
    this.reminderTimer = null;
    await this.store.close();
  }
}
