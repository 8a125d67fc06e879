/**
 * @module Who is online right now, as last reported by the configured source, and how healthy
 * that source is.
 */

export type OnlineSourceKind = 'rcon' | 'query' | 'none';

export interface PresenceSnapshot {
  source: OnlineSourceKind;
  /** Whether the last poll succeeded (always false for `none`). */
  connected: boolean;
  lastSuccessAt: number | null;
  lastError: string | null;
  online: number;
  max: number | null;
}

/** What read models ask of who is online (one server's presence, or a network's). */
export interface OnlineReader {
  isOnline(uuid: string): boolean;
  uuids(): ReadonlySet<string>;
  /** Moves whenever the set of online players changes. */
  readonly generation: number;
}

export class Presence implements OnlineReader {
  private onlineUuids = new Set<string>();
  private state: PresenceSnapshot;
  /** Bumped when the set of online players changes. */
  generation = 0;
  /** Bumped on every poll result, whether or not who is online changed (health shows them). */
  polls = 0;
  /** Bumped when the source becomes reachable or unreachable. */
  connectionChanges = 0;
  /** When the source last became reachable or unreachable (or this presence was made). */
  connectionSince = Date.now();

  constructor(source: OnlineSourceKind) {
    this.state = { source, connected: false, lastSuccessAt: null, lastError: null, online: 0, max: null };
  }

  isOnline(uuid: string): boolean {
    return this.onlineUuids.has(uuid);
  }

  uuids(): ReadonlySet<string> {
    return this.onlineUuids;
  }

  snapshot(): PresenceSnapshot {
    // Not a spread: V8 allocates an object spread of a long-lived object in the old generation.
    return Object.assign({}, this.state, { online: this.onlineUuids.size });
  }

  /** Records a successful poll. */
  update(uuids: Iterable<string>, max: number | null, at: number) {
    const next = new Set(uuids);
    const same = next.size === this.onlineUuids.size && [...next].every((uuid) => this.onlineUuids.has(uuid));
    if (!same) {
      this.onlineUuids = next;
      this.generation++;
    }
    if (!this.state.connected) this.connectionChanged();
    this.state = { ...this.state, connected: true, lastSuccessAt: at, lastError: null, max };
    this.polls++;
  }

  private connectionChanged() {
    this.connectionChanges++;
    this.connectionSince = Date.now();
  }

  /** Records a failed poll: nobody is reported online while the source is unreachable. */
  fail(message: string) {
    if (this.onlineUuids.size > 0) {
      this.onlineUuids = new Set();
      this.generation++;
    }
    if (this.state.connected) this.connectionChanged();
    this.state = { ...this.state, connected: false, lastError: message };
    this.polls++;
  }
}
