/**
 * @module The default ledger store: everything in process memory, lost on exit.
 */
import {
  type LedgerEntry,
  type LedgerStore,
  type ReminderCutoff,
  sinceMs,
  type VoteQuery,
} from './ledger-store.js';

export class MemoryLedgerStore implements LedgerStore {
  private readonly entries: LedgerEntry[] = [];
  private readonly keys = new Map<string, LedgerEntry>();
  /** Each user's most recent vote per list: `latest` is asked on every record. */
  private readonly latestByUser = new Map<string, LedgerEntry>();
  private readonly optIns = new Set<string>();

  async add(entry: LedgerEntry): Promise<boolean> {
    const id = `${entry.list}\n${entry.key}`;
    if (this.keys.has(id)) return false;
    const copy = { ...entry };
    this.keys.set(id, copy);
    this.entries.push(copy);
    const user = `${entry.list}\n${entry.userId}`;
    const latest = this.latestByUser.get(user);
    if (!latest || copy.at >= latest.at) this.latestByUser.set(user, copy);
    return true;
  }

  async latest(list: string, userId: string): Promise<LedgerEntry | null> {
    const found = this.latestByUser.get(`${list}\n${userId}`);
    return found ? { ...found } : null;
  }

  async query(filter: VoteQuery): Promise<LedgerEntry[]> {
    const since = sinceMs(filter.since);
    return this.entries
      .filter(
        (e) =>
          e.at >= since &&
          (filter.userId === undefined || e.userId === filter.userId) &&
          (filter.list === undefined || e.list === filter.list),
      )
      .sort((a, b) => a.at - b.at)
      .map((e) => ({ ...e }));
  }

  async claimReminders(due: readonly ReminderCutoff[]): Promise<LedgerEntry[]> {
    const claimed: LedgerEntry[] = [];
    for (const { list, cutoff } of due)
      for (const userId of this.optIns) {
        const latest = this.latestByUser.get(`${list}\n${userId}`);
        if (!latest || latest.reminded || latest.at > cutoff) continue;
        latest.reminded = true;
        claimed.push({ ...latest });
      }
    return claimed;
  }

  async setOptIn(userId: string, optedIn: boolean): Promise<void> {
    if (optedIn) this.optIns.add(userId);
    else this.optIns.delete(userId);
  }

  async optedIn(): Promise<string[]> {
    return [...this.optIns];
  }

  async close(): Promise<void> {}
}
