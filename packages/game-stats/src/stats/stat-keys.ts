/**
 * @module Names of the vanilla statistics the API reads, and the category aliases of leaderboard stats.
 */

/** Namespace the game writes in front of every category and key. */
const defaultNamespace = 'minecraft';

/** The nine vanilla statistic categories (https://minecraft.wiki/Statistics). */
const vanillaCategories = [
  'custom',
  'mined',
  'crafted',
  'used',
  'broken',
  'picked_up',
  'dropped',
  'killed',
  'killed_by',
] as const;

export type VanillaCategory = (typeof vanillaCategories)[number];

/**
 * Short names accepted for a category in `category.key` leaderboard stats and the `categories`
 * filter. Null prototype: looking up `__proto__` or `constructor` finds nothing, not Object's members.
 */
export const categoryAliases: Readonly<Record<string, VanillaCategory>> = Object.assign(Object.create(null), {
  custom: 'custom',
  mined: 'mined',
  mine: 'mined',
  crafted: 'crafted',
  craft: 'crafted',
  used: 'used',
  use: 'used',
  broken: 'broken',
  break: 'broken',
  picked_up: 'picked_up',
  pickedup: 'picked_up',
  pickup: 'picked_up',
  dropped: 'dropped',
  drop: 'dropped',
  killed: 'killed',
  kill: 'killed',
  killed_by: 'killed_by',
  killedby: 'killed_by',
});

/** Keys of `minecraft:custom` the summaries read (values as the game stores them). */
export const customKeys = {
  /** Ticks (20 per second); named `play_one_minute` before the rename. */
  playTime: 'play_time',
  legacyPlayTime: 'play_one_minute',
  deaths: 'deaths',
  playerKills: 'player_kills',
  mobKills: 'mob_kills',
  /** Tenths of a health point. */
  damageDealt: 'damage_dealt',
  damageTaken: 'damage_taken',
  jumps: 'jump',
  openChest: 'open_chest',
  openShulkerBox: 'open_shulker_box',
  walk: 'walk_one_cm',
  sprint: 'sprint_one_cm',
  fly: 'fly_one_cm',
  swim: 'swim_one_cm',
} as const;

/** Every `*_one_cm` key that counts towards the total distance travelled. */
export const distanceKeys = [
  'walk_one_cm',
  'sprint_one_cm',
  'fly_one_cm',
  'swim_one_cm',
  'walk_under_water_one_cm',
  'walk_on_water_one_cm',
  'crouch_one_cm',
  'climb_one_cm',
  'horse_one_cm',
  'boat_one_cm',
  'minecart_one_cm',
  'pig_one_cm',
  'strider_one_cm',
  'aviate_one_cm',
  'happy_ghast_one_cm',
] as const;

/** Prefixes `ns:` to a name that has none. */
export function withNamespace(name: string): string {
  return name.includes(':') ? name : `${defaultNamespace}:${name}`;
}
