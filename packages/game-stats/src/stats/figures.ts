/**
 * @module Headline figures of a player (play time, kills, distances, item totals) computed from
 * raw statistics, in the units the game stores them.
 */
import { customKeys, distanceKeys, type VanillaCategory } from './stat-keys.js';

/** Read access to one player's statistics by short (un-namespaced) names. */
export interface StatReader {
  custom(key: string): number;
  categoryTotal(category: VanillaCategory): number;
}

interface PlayerFigures {
  playTimeTicks: number;
  deaths: number;
  playerKills: number;
  mobKills: number;
  damageDealt: number;
  damageTaken: number;
  jumps: number;
  walkedCm: number;
  sprintedCm: number;
  flownCm: number;
  swumCm: number;
  distanceCm: number;
  chestsOpened: number;
  itemsCrafted: number;
  itemsBroken: number;
  itemsUsed: number;
  itemsDropped: number;
  itemsPickedUp: number;
  blocksMined: number;
}

/** `play_time`, or its pre-rename name `play_one_minute` (same unit: ticks). */
function playTimeTicks(stats: StatReader): number {
  return stats.custom(customKeys.playTime) || stats.custom(customKeys.legacyPlayTime);
}

export function computeFigures(stats: StatReader): PlayerFigures {
  return {
    playTimeTicks: playTimeTicks(stats),
    deaths: stats.custom(customKeys.deaths),
    playerKills: stats.custom(customKeys.playerKills),
    mobKills: stats.custom(customKeys.mobKills),
    damageDealt: stats.custom(customKeys.damageDealt),
    damageTaken: stats.custom(customKeys.damageTaken),
    jumps: stats.custom(customKeys.jumps),
    walkedCm: stats.custom(customKeys.walk),
    sprintedCm: stats.custom(customKeys.sprint),
    flownCm: stats.custom(customKeys.fly),
    swumCm: stats.custom(customKeys.swim),
    distanceCm: distanceKeys.reduce((sum, key) => sum + stats.custom(key), 0),
    chestsOpened: stats.custom(customKeys.openChest) + stats.custom(customKeys.openShulkerBox),
    itemsCrafted: stats.categoryTotal('crafted'),
    itemsBroken: stats.categoryTotal('broken'),
    itemsUsed: stats.categoryTotal('used'),
    itemsDropped: stats.categoryTotal('dropped'),
    itemsPickedUp: stats.categoryTotal('picked_up'),
    blocksMined: stats.categoryTotal('mined'),
  };
}
