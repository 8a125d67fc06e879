/**
 * @module The endpoint registry: every card the service serves, in gallery order. Each entry
 * is served at its path and under `/api`.
 */
import type { Endpoint } from '../http/endpoint.js';
import { badge } from './badge.js';
import { banner } from './banner.js';
import { icon } from './icon.js';
import { quote } from './quote.js';
import { shapes } from './shapes.js';
import { skills } from './skills.js';
import { animatedText } from './text.js';
import { typing } from './typing.js';
import { visitors } from './visitors.js';

export const endpoints: readonly Endpoint[] = [
  // Cards drawn from the query alone (issue 3).
  typing,
  animatedText,
  banner,
  badge,
  skills,
  icon,
  quote,
  shapes,
  visitors,
  // GitHub cards (issue 4) go here.
];
