/**
 * @module One server of a network as a statistics source of its own: its players with only
 * that server's statistics, sharing the network index's key table, names, journal and
 * generation (a change anywhere moves them all, which only ever over-invalidates).
 */
import type { IndexedPlayer } from './indexed-player.js';
import type { StatsSource } from './stats-source.js';

/** Whether a server's folder can be read, and since when. */
interface ServerFolderState {
  readable: boolean;
  /** When the folder was last found readable or unreadable (ms since epoch). */
  since: number;
  /** Why it is unreadable (`ENOENT`, `EACCES`...); null while readable. */
  reason: string | null;
}

export class ServerView implements StatsSource {
  /** Players with at least one statistics file on this server, with this server's statistics. */
  readonly players = new Map<string, IndexedPlayer>();
  folder: ServerFolderState = { readable: true, since: Date.now(), reason: null };

  constructor(
    readonly name: string,
    private readonly network: Omit<StatsSource, 'players'>,
  ) {}

  get keys() {
    return this.network.keys;
  }

  get journal() {
    return this.network.journal;
  }

  get names() {
    return this.network.names;
  }

  get generation() {
    return this.network.generation;
  }

  set generation(value: number) {
    this.network.generation = value;
  }
}
