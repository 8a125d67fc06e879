/**
 * @module The endpoint registry: every card the service serves, in gallery order. Each entry
 * is served at its path and under `/api`.
 */
import type { Endpoint } from '../http/endpoint.js';
import { activity } from './activity.js';
import { badge } from './badge.js';
import { banner } from './banner.js';
import { hours } from './hours.js';
import { icon } from './icon.js';
import { languages } from './languages.js';
import { neofetch } from './neofetch.js';
import { quote } from './quote.js';
import { repo } from './repo.js';
import { shapes } from './shapes.js';
import { skills } from './skills.js';
import { snake } from './snake.js';
import { stars } from './stars.js';
import { stats } from './stats.js';
import { streak } from './streak.js';
import { animatedText } from './text.js';
import { timeline } from './timeline.js';
import { trophy } from './trophy.js';
import { typing } from './typing.js';
import { views } from './views.js';
import { visitors } from './visitors.js';

export const endpoints: readonly Endpoint[] = [
  // Cards drawn from the query alone.
  typing,
  animatedText,
  banner,
  badge,
  skills,
  icon,
  quote,
  shapes,
  visitors,
  // GitHub cards.
  stats,
  streak,
  activity,
  languages,
  trophy,
  repo,
  stars,
  views,
  timeline,
  snake,
  neofetch,
  hours,
];
