/**
 * @module The keys of a pre-1.13 statistics file (`stat.killEntity.LavaSlime`,
 * `stat.mineBlock.minecraft.log`, `stat.furnaceInteraction`) renamed as the game's own upgrade
 * to 1.13 renames them: its statistics data fixer (DataFixers `StatsCounterFix`, DataVersion
 * 1451.6), then the block and item flattening (see flattening-1.13.ts), then the renames of
 * later 1.13 data versions that reach statistics keys (1474, 1475, 1490, 1510). The result is
 * what a 1.13 server writes for the same player.
 *
 * Facts, not code. Source: Mojang's DataFixers as reproduced in Earthcomputer/world-transmuter
 * at commit a7d04e6230d580ef4e5474a1fffaa16ec1c0d833: src/helpers/flatten_stats_v1451.rs (the
 * tables of `StatsCounterFix`), src/versions/v1474.rs, v1475.rs, v1490.rs and v1510.rs. Names
 * are written without the `minecraft:` namespace.
 */
import { flattenedBlockNames, flattenedItemNames } from './flattening-1.13.js';
import { withNamespace } from './stat-keys.js';

/** `stat.<name>` general statistics and their `minecraft:custom` key (`StatsCounterFix`). */
const customStats: ReadonlyMap<string, string> = new Map([
  ['leaveGame', 'leave_game'],
  ['playOneMinute', 'play_one_minute'],
  ['timeSinceDeath', 'time_since_death'],
  ['sneakTime', 'sneak_time'],
  ['walkOneCm', 'walk_one_cm'],
  ['crouchOneCm', 'crouch_one_cm'],
  ['sprintOneCm', 'sprint_one_cm'],
  ['swimOneCm', 'swim_one_cm'],
  ['fallOneCm', 'fall_one_cm'],
  ['climbOneCm', 'climb_one_cm'],
  ['flyOneCm', 'fly_one_cm'],
  ['diveOneCm', 'dive_one_cm'],
  ['minecartOneCm', 'minecart_one_cm'],
  ['boatOneCm', 'boat_one_cm'],
  ['pigOneCm', 'pig_one_cm'],
  ['horseOneCm', 'horse_one_cm'],
  ['aviateOneCm', 'aviate_one_cm'],
  ['jump', 'jump'],
  ['drop', 'drop'],
  ['damageDealt', 'damage_dealt'],
  ['damageTaken', 'damage_taken'],
  ['deaths', 'deaths'],
  ['mobKills', 'mob_kills'],
  ['animalsBred', 'animals_bred'],
  ['playerKills', 'player_kills'],
  ['fishCaught', 'fish_caught'],
  ['talkedToVillager', 'talked_to_villager'],
  ['tradedWithVillager', 'traded_with_villager'],
  ['cakeSlicesEaten', 'eat_cake_slice'],
  ['cauldronFilled', 'fill_cauldron'],
  ['cauldronUsed', 'use_cauldron'],
  ['armorCleaned', 'clean_armor'],
  ['bannerCleaned', 'clean_banner'],
  ['brewingstandInteraction', 'interact_with_brewingstand'],
  ['beaconInteraction', 'interact_with_beacon'],
  ['dropperInspected', 'inspect_dropper'],
  ['hopperInspected', 'inspect_hopper'],
  ['dispenserInspected', 'inspect_dispenser'],
  ['noteblockPlayed', 'play_noteblock'],
  ['noteblockTuned', 'tune_noteblock'],
  ['flowerPotted', 'pot_flower'],
  ['trappedChestTriggered', 'trigger_trapped_chest'],
  ['enderchestOpened', 'open_enderchest'],
  ['itemEnchanted', 'enchant_item'],
  ['recordPlayed', 'play_record'],
  ['furnaceInteraction', 'interact_with_furnace'],
  ['craftingTableInteraction', 'interact_with_crafting_table'],
  ['chestOpened', 'open_chest'],
  ['sleepInBed', 'sleep_in_bed'],
  ['shulkerBoxOpened', 'open_shulker_box'],
]);

/** `stat.<prefix>.<ns>.<name>` statistics of blocks, items and entities, and their category. */
const keyedCategories: ReadonlyMap<string, { category: string; names: 'block' | 'item' | 'entity' }> =
  new Map([
    ['mineBlock', { category: 'mined', names: 'block' }],
    ['craftItem', { category: 'crafted', names: 'item' }],
    ['useItem', { category: 'used', names: 'item' }],
    ['breakItem', { category: 'broken', names: 'item' }],
    ['pickup', { category: 'picked_up', names: 'item' }],
    ['drop', { category: 'dropped', names: 'item' }],
    ['entityKilledBy', { category: 'killed_by', names: 'entity' }],
    ['killEntity', { category: 'killed', names: 'entity' }],
  ]);

/** Keys the fixer drops (the spawn egg's statistics; 1.13 has one item per mob instead). */
const droppedKeys: ReadonlySet<string> = new Set(
  ['craftItem', 'useItem', 'breakItem', 'pickup', 'drop'].map(
    (prefix) => `stat.${prefix}.minecraft.spawn_egg`,
  ),
);

/** Pre-1.13 entity names of `killEntity` / `entityKilledBy` (`StatsCounterFix`'s own table). */
const entityNames: ReadonlyMap<string, string> = new Map([
  ['Bat', 'bat'],
  ['Blaze', 'blaze'],
  ['CaveSpider', 'cave_spider'],
  ['Chicken', 'chicken'],
  ['Cow', 'cow'],
  ['Creeper', 'creeper'],
  ['Donkey', 'donkey'],
  ['ElderGuardian', 'elder_guardian'],
  ['Enderman', 'enderman'],
  ['Endermite', 'endermite'],
  ['EvocationIllager', 'evocation_illager'],
  ['Ghast', 'ghast'],
  ['Guardian', 'guardian'],
  ['Horse', 'horse'],
  ['Husk', 'husk'],
  ['Llama', 'llama'],
  ['LavaSlime', 'magma_cube'],
  ['MushroomCow', 'mooshroom'],
  ['Mule', 'mule'],
  ['Ozelot', 'ocelot'],
  ['Parrot', 'parrot'],
  ['Pig', 'pig'],
  ['PolarBear', 'polar_bear'],
  ['Rabbit', 'rabbit'],
  ['Sheep', 'sheep'],
  ['Shulker', 'shulker'],
  ['Silverfish', 'silverfish'],
  ['SkeletonHorse', 'skeleton_horse'],
  ['Skeleton', 'skeleton'],
  ['Slime', 'slime'],
  ['Spider', 'spider'],
  ['Squid', 'squid'],
  ['Stray', 'stray'],
  ['Vex', 'vex'],
  ['Villager', 'villager'],
  ['VindicationIllager', 'vindication_illager'],
  ['Witch', 'witch'],
  ['WitherSkeleton', 'wither_skeleton'],
  ['Wolf', 'wolf'],
  ['ZombieHorse', 'zombie_horse'],
  ['PigZombie', 'zombie_pigman'],
  ['ZombieVillager', 'zombie_villager'],
  ['Zombie', 'zombie'],
]);

/** Block renames of DataVersions 1474 (shulker box), 1475 (flowing liquids), 1490 and 1510. */
const blockRenames: ReadonlyMap<string, string> = new Map([
  ['purple_shulker_box', 'shulker_box'],
  ['flowing_water', 'water'],
  ['flowing_lava', 'lava'],
  ['melon_block', 'melon'],
  ['portal', 'nether_portal'],
  ['mob_spawner', 'spawner'],
]);

/**
 * Item renames of DataVersions 1474, 1490 and 1510 (1510 renames the items of its renamed
 * blocks too). 1490's `melon` -> `melon_slice` and `melon_block` -> `melon` are one step each.
 */
const itemRenames: ReadonlyMap<string, string> = new Map([
  ['purple_shulker_box', 'shulker_box'],
  ['melon_block', 'melon'],
  ['melon', 'melon_slice'],
  ['speckled_melon', 'glistering_melon_slice'],
  ['portal', 'nether_portal'],
  ['mob_spawner', 'spawner'],
  ['clownfish', 'tropical_fish'],
  ['chorus_fruit_popped', 'popped_chorus_fruit'],
  ['evocation_illager_spawn_egg', 'evoker_spawn_egg'],
  ['vindication_illager_spawn_egg', 'vindicator_spawn_egg'],
]);

/** Entity renames of DataVersion 1510. */
const entityRenames: ReadonlyMap<string, string> = new Map([
  ['commandblock_minecart', 'command_block_minecart'],
  ['ender_crystal', 'end_crystal'],
  ['snowman', 'snow_golem'],
  ['evocation_illager', 'evoker'],
  ['evocation_fangs', 'evoker_fangs'],
  ['illusion_illager', 'illusioner'],
  ['vindication_illager', 'vindicator'],
  ['villager_golem', 'iron_golem'],
  ['xp_orb', 'experience_orb'],
  ['xp_bottle', 'experience_bottle'],
  ['eye_of_ender_signal', 'eye_of_ender'],
  ['fireworks_rocket', 'firework_rocket'],
]);

/** `minecraft:custom` renames of DataVersion 1510 (1.13's new swimming took `swim_one_cm`). */
const customRenames: ReadonlyMap<string, string> = new Map([
  ['swim_one_cm', 'walk_on_water_one_cm'],
  ['dive_one_cm', 'walk_under_water_one_cm'],
]);

const nameSteps = {
  block: [flattenedBlockNames, blockRenames],
  item: [flattenedItemNames, itemRenames],
  entity: [entityRenames],
} as const;

/** A pre-1.13 key's 1.13 category and key (both namespaced), or null when the game drops it. */
export function upgradeLegacyStatKey(legacyKey: string): { category: string; key: string } | null {
  if (!legacyKey.startsWith('stat.') || droppedKeys.has(legacyKey)) return null;
  const rest = legacyKey.slice('stat.'.length);
  const custom = customStats.get(rest);
  if (custom !== undefined) {
    return { category: 'minecraft:custom', key: withNamespace(customRenames.get(custom) ?? custom) };
  }
  const dot = rest.indexOf('.');
  if (dot < 0) return null;
  const keyed = keyedCategories.get(rest.slice(0, dot));
  if (!keyed) return null;
  // `minecraft.log` -> `minecraft:log`, every dot as the fixer does.
  let name = rest.slice(dot + 1).replaceAll('.', ':');
  if (keyed.names === 'entity') name = entityNames.get(name) ?? name;
  name = withNamespace(name);
  // The tables hold vanilla names only; a modded name goes through unchanged.
  if (name.startsWith('minecraft:')) {
    let short = name.slice('minecraft:'.length);
    for (const step of nameSteps[keyed.names]) short = step.get(short) ?? short;
    name = `minecraft:${short}`;
  }
  return { category: `minecraft:${keyed.category}`, key: name };
}
