/**
 * @module What the read models (directory, history) need of an index: its players' statistics,
 * key table, names and change journal. The whole index is one (network totals); each server of
 * a network is another (`ServerView`).
 */
import type { ChangeJournal } from './change-journal.js';
import type { IndexedPlayer } from './indexed-player.js';
import type { NameBook } from './name-book.js';
import type { StatKeyTable } from './stat-key-table.js';

export interface StatsSource {
  readonly keys: StatKeyTable;
  readonly journal: ChangeJournal;
  readonly names: NameBook;
  readonly players: ReadonlyMap<string, IndexedPlayer>;
  /** Bumped on every change; caches keyed by it stay valid until it moves. */
  generation: number;
}
