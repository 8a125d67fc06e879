/**
 * @module Who is online anywhere in a network: the union of every server's presence (each fed
 * by that server's RCON or Query), and which server each player is on.
 */
import type { OnlineReader, OnlineSourceKind, Presence, PresenceSnapshot } from './presence.js';

interface NetworkMemberPresence {
  name: string;
  presence: Presence;
  /** `max-players` of its server.properties, when its source reports no maximum. */
  maxPlayers: number;
}

export class NetworkPresence implements OnlineReader {
  private union = new Set<string>();
  private unionOf = -1;

  constructor(readonly members: readonly NetworkMemberPresence[]) {}

  /** Moves when anyone logs in or out anywhere, or a source comes or goes. */
  get generation(): number {
    let sum = 0;
    for (const { presence } of this.members) sum += presence.generation + presence.connectionChanges;
    return sum;
  }

  /** Every poll of every source. */
  get polls(): number {
    let sum = 0;
    for (const { presence } of this.members) sum += presence.polls;
    return sum;
  }

  isOnline(uuid: string): boolean {
    return this.members.some(({ presence }) => presence.isOnline(uuid));
  }

  uuids(): ReadonlySet<string> {
    const generation = this.generation;
    if (generation !== this.unionOf) {
      this.union = new Set(this.members.flatMap(({ presence }) => [...presence.uuids()]));
      this.unionOf = generation;
    }
    return this.union;
  }

  /**
   * The network as one source: `rcon` when any server uses RCON (else `query`, else `none`),
   * connected when every configured source is, the latest success, the first error (with its
   * server's name), everyone online once, and the sum of the maximums.
   */
  snapshot(): PresenceSnapshot {
    const states = this.members.map((member) => ({ member, state: member.presence.snapshot() }));
    const sources = states.filter(({ state }) => state.source !== 'none');
    const kinds = new Set(sources.map(({ state }) => state.source));
    const source: OnlineSourceKind = kinds.has('rcon') ? 'rcon' : kinds.has('query') ? 'query' : 'none';
    const successes = sources.flatMap(({ state }) =>
      state.lastSuccessAt === null ? [] : [state.lastSuccessAt],
    );
    const failed = sources.find(({ state }) => state.lastError !== null);
    return {
      source,
      connected: sources.length > 0 && sources.every(({ state }) => state.connected),
      lastSuccessAt: successes.length === 0 ? null : Math.max(...successes),
      lastError: failed ? `${failed.member.name}: ${failed.state.lastError}` : null,
      online: this.uuids().size,
      max: states.reduce((sum, { member, state }) => sum + (state.max ?? member.maxPlayers), 0),
    };
  }

  /** The server a player is online on (the first listed, should a proxy show them on two); null when offline. */
  serverOf(uuid: string): string | null {
    return this.members.find(({ presence }) => presence.isOnline(uuid))?.name ?? null;
  }
}
