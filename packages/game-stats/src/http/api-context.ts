/**
 * @module What the route handlers read: the index, presence, read model, stat resolver and
 * settings of one running API.
 */
import type { Config } from '../config/schema.js';
import type { PlayerIndex } from '../index/player-index.js';
import type { Presence } from '../online/presence.js';
import type { Directory } from '../query/directory.js';
import type { StatResolver } from '../query/stat-resolver.js';

export interface ApiContext {
  config: Config;
  index: PlayerIndex;
  presence: Presence;
  directory: Directory;
  resolver: StatResolver;
  version: string;
  startedAt: number;
  /** `max-players` when no online source reported one. */
  maxPlayers: number;
  gameVersion: () => string | null;
  /** Requests being handled right now. */
  inFlight: { count: number };
}

/** Milliseconds since `started`, as the integer `execution_time_ms`. */
export function elapsedMs(started: number): number {
  return Math.round(performance.now() - started);
}
