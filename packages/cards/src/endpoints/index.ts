/**
 * @module The endpoint registry: every card the service serves, in gallery order. Each entry
 * is served at its path and under `/api`.
 */
import type { Endpoint } from '../http/endpoint.js';
import { badge } from './badge.js';
import { typing } from './typing.js';

export const endpoints: readonly Endpoint[] = [
  // Cards drawn from the query alone (issue 3).
  typing,
  badge,
  // GitHub cards (issue 4) go here.
];
