/**
 * @module Lenient reader of one player statistics file: the modern nested layout, pre-1.13 flat
 * `stat.*` keys, keys without namespace, and corrupt or empty content.
 */
import { withNamespace } from './stat-keys.js';

/** `{ "<ns>:<category>": { "<ns>:<name>": value } }`, only finite non-zero integers kept. */
export type StatDump = Record<string, Record<string, number>>;

export type StatsFileResult =
  | { ok: true; stats: StatDump; dataVersion: number | null; legacy: boolean }
  | { ok: false; reason: string };

/** Pre-1.13 flat key prefixes and the category they became. */
const legacyItemCategories: Readonly<Record<string, string>> = {
  mineBlock: 'mined',
  craftItem: 'crafted',
  useItem: 'used',
  breakItem: 'broken',
  pickup: 'picked_up',
  drop: 'dropped',
  killEntity: 'killed',
  entityKilledBy: 'killed_by',
};

/** Pre-1.13 general stats whose modern name is not their snake_case form. */
const legacyCustomRenames: Readonly<Record<string, string>> = {
  playOneMinute: 'play_time',
  chestOpened: 'open_chest',
  shulkerBoxOpened: 'open_shulker_box',
  junkFished: 'fish_caught',
  treasureFished: 'fish_caught',
  timeSinceDeath: 'time_since_death',
};

/** Parses the text of a stats file; never throws. */
export function parseStatsFile(text: string): StatsFileResult {
  if (text.trim() === '') return { ok: false, reason: 'empty file' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { ok: false, reason: `invalid JSON (${(error as Error).message})` };
  }
  if (!isRecord(parsed)) return { ok: false, reason: 'not a JSON object' };
  const dataVersion = typeof parsed.DataVersion === 'number' ? parsed.DataVersion : null;
  if (isRecord(parsed.stats))
    return { ok: true, stats: readNested(parsed.stats), dataVersion, legacy: false };
  if (Object.keys(parsed).some((key) => key.startsWith('stat.'))) {
    return { ok: true, stats: readLegacyFlat(parsed), dataVersion, legacy: true };
  }
  return { ok: false, reason: 'no "stats" object' };
}

function readNested(stats: Record<string, unknown>): StatDump {
  const dump: StatDump = {};
  for (const category in stats) {
    const entries = stats[category];
    if (!isRecord(entries)) continue;
    const target: Record<string, number> = {};
    let kept = 0;
    for (const key in entries) {
      const value = entries[key];
      if (typeof value !== 'number' || !Number.isFinite(value) || value === 0) continue;
      // Files written by the game are already namespaced: normalise only when needed.
      const name = key.includes(':') ? key : withNamespace(normaliseDottedKey(key));
      target[name] = (target[name] ?? 0) + Math.trunc(value);
      kept++;
    }
    if (kept === 0) continue;
    const full = withNamespace(category);
    if (dump[full]) for (const key in target) dump[full][key] = (dump[full][key] ?? 0) + target[key]!;
    else dump[full] = target;
  }
  return dump;
}

/** Flat `stat.mineBlock.minecraft.stone` / `stat.deaths` keys of files older than 1.13. */
function readLegacyFlat(flat: Record<string, unknown>): StatDump {
  const dump: StatDump = {};
  for (const [key, value] of Object.entries(flat)) {
    if (!key.startsWith('stat.')) continue;
    const parts = key.slice('stat.'.length).split('.');
    const head = parts[0] ?? '';
    const itemCategory = legacyItemCategories[head];
    if (itemCategory && parts.length > 1) {
      const rest = parts.slice(1);
      const id = rest.length > 1 ? `${rest[0]}:${rest.slice(1).join('_')}` : toSnakeCase(rest[0] ?? '');
      add(dump, withNamespace(itemCategory), withNamespace(id.toLowerCase()), value);
    } else if (parts.length === 1) {
      add(dump, 'minecraft:custom', withNamespace(legacyCustomRenames[head] ?? toSnakeCase(head)), value);
    }
  }
  return dump;
}

/** Some tools write `minecraft.stone` instead of `minecraft:stone`. */
function normaliseDottedKey(key: string): string {
  return !key.includes(':') && key.includes('.') ? key.replace('.', ':') : key;
}

function add(dump: StatDump, category: string, key: string, value: unknown) {
  if (typeof value !== 'number' || !Number.isFinite(value) || value === 0) return;
  const entries = dump[category] ?? {};
  dump[category] = entries;
  entries[key] = (entries[key] ?? 0) + Math.trunc(value);
}

/** `walkOneCm` -> `walk_one_cm`, `Zombie` -> `zombie`. */
function toSnakeCase(camel: string): string {
  return camel.replace(
    /[A-Z]/g,
    (letter, offset: number) => `${offset === 0 ? '' : '_'}${letter.toLowerCase()}`,
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
