/**
 * @module The players whose statistics, presence in the index or name changed, in order: read
 * models that keep derived data (the name-sorted roster, rankings) ask what changed since the
 * version they last saw and update just those players instead of starting over.
 */

/** Changes kept; a reader further behind than this starts over from scratch. */
const defaultCapacity = 50_000;

export class ChangeJournal {
  /** Number of changes ever recorded: a reader remembers it as the version it has seen. */
  private recorded = 0;
  /** The last changes, oldest first; `entries[0]` is change number `recorded - entries.length + 1`. */
  private entries: string[] = [];

  constructor(private readonly capacity = defaultCapacity) {}

  get version(): number {
    return this.recorded;
  }

  record(uuid: string): void {
    this.entries.push(uuid);
    this.recorded++;
    // Drop the oldest half at once, so trimming costs O(1) amortised per change.
    if (this.entries.length > this.capacity) this.entries = this.entries.slice(this.entries.length >> 1);
  }

  /** UUIDs changed after `version`; null when the journal no longer reaches back that far. */
  changedSince(version: number): Set<string> | null {
    const missing = this.recorded - version;
    if (missing > this.entries.length || missing < 0) return null;
    const changed = new Set<string>();
    for (let index = this.entries.length - missing; index < this.entries.length; index++)
      changed.add(this.entries[index]!);
    return changed;
  }
}
