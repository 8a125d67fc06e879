/**
 * @module Lenient reader of one player statistics file: the modern nested layout, pre-1.13 flat
 * `stat.*` keys, keys without namespace, and corrupt or empty content.
 */
import { upgradeLegacyStatKey } from './legacy-stat-keys.js';
import { withNamespace } from './stat-keys.js';

/** `{ "<ns>:<category>": { "<ns>:<name>": value } }`, only finite non-zero integers kept. */
export type StatDump = Record<string, Record<string, number>>;

type StatsFileResult =
  | { ok: true; stats: StatDump; dataVersion: number | null; legacy: boolean }
  | { ok: false; reason: string };

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

/**
 * Flat `stat.mineBlock.minecraft.log` / `stat.deaths` keys of files older than 1.13, renamed as
 * the game's 1.13 upgrade renames them (see legacy-stat-keys.ts). Two old keys that become one
 * (`mineBlock` of `furnace` and `lit_furnace`) are summed: the game keeps either, by hash order.
 */
function readLegacyFlat(flat: Record<string, unknown>): StatDump {
  const dump: StatDump = {};
  for (const [legacyKey, value] of Object.entries(flat)) {
    const upgraded = upgradeLegacyStatKey(legacyKey);
    if (upgraded) add(dump, upgraded.category, upgraded.key, value);
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

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
