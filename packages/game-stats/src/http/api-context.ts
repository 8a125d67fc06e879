/**
 * @module What the route handlers read: the index, presence, read model, stat resolver and
 * settings of one running API.
 */

import type { Config } from '../config/schema.js';
import type { StatHistory } from '../history/stat-history.js';
import type { PlayerIndex } from '../index/player-index.js';
import type { OnlineReader, PresenceSnapshot } from '../online/presence.js';
import type { Directory } from '../query/directory.js';
import type { StatResolver } from '../query/stat-resolver.js';
import type { AnswersByTarget } from './fragment-cache.js';
import type { Network } from './server-scope.js';

export interface ApiContext {
  config: Config;
  index: PlayerIndex;
  /** Who is online: the server's presence, or the network's union. */
  presence: OnlineReader & { readonly polls: number; snapshot(): PresenceSnapshot };
  directory: Directory;
  resolver: StatResolver;
  /** Periodic snapshots for leaderboards over a window; absent when not live (one-shot reads). */
  history?: StatHistory;
  version: string;
  startedAt: number;
  /** `max-players` when no online source reported one. */
  maxPlayers: number;
  gameVersion: () => string | null;
  /** Requests being handled right now. */
  inFlight: { count: number };
  /** Where routes leave their answers for the shortcut; absent when the shortcut is off. */
  answers?: AnswersByTarget;
  /** The servers of a network (`servers:`); absent for a single server. */
  network?: Network;
}

/** Milliseconds since `started`, as the integer `execution_time_ms`. */
export function elapsedMs(started: number): number {
  return Math.round(performance.now() - started);
}

/** The metadata fields of a body that follow `generated_at` and `execution_time_ms`. */
export type MetadataRest<Body extends { metadata: object }> = Omit<
  Body['metadata'],
  'generated_at' | 'execution_time_ms'
>;
