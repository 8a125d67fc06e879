/**
 * @module The chains firewarden owns in the filter table. Our rules live only there; the built-in
 * chains get one jump each, so rules we do not own are never rewritten.
 */
import type { Direction } from './rule.js';

export const ownedChains: Record<Direction, string> = {
  in: 'FIREWARDEN-INPUT',
  out: 'FIREWARDEN-OUTPUT',
  forward: 'FIREWARDEN-FORWARD',
};

export const builtinChainOf: Record<Direction, string> = { in: 'INPUT', out: 'OUTPUT', forward: 'FORWARD' };

export const directionOfChain = new Map<string, Direction>(
  Object.entries(ownedChains).map(([direction, chain]) => [chain, direction as Direction]),
);

/**
 * Our chain for Docker's published ports, jumped to from Docker's `DOCKER-USER` (forwarded
 * traffic, which INPUT never sees); see `docker-published-ports.ts`.
 */
export const dockerChain = 'FIREWARDEN-DOCKER';
export const dockerUserChain = 'DOCKER-USER';
