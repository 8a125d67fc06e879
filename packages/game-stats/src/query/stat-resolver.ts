/**
 * @module Turns a leaderboard `{stat}` into something computable: a built-in, a custom sum, a
 * dotted `category.key`, a full `<ns>:<category>:<ns>:<name>` key, a whole category, or a key
 * of `<ns>:custom`. Unknown stats resolve to null (404).
 */
import { type CompactStats, categoryTotal, statValue } from '../index/compact-stats.js';
import type { IndexedPlayer } from '../index/indexed-player.js';
import type { StatKeyTable } from '../index/stat-key-table.js';
import { categoryAliases, customKeys, withNamespace } from '../stats/stat-keys.js';

/** A stat that can be computed for any player. */
export interface ResolvedStat {
  /** Canonical name (cache key, and `stat` of the response). */
  name: string;
  /** Play time: entries get `formatted`. */
  isPlaytime: boolean;
  /** Bumped by every `register`: rankings cached under an older revision are not reused. */
  revision?: number;
  compute(stats: CompactStats): number;
  /** When set, a player's value (windowed statistics also read the player's history). */
  computeFor?(player: IndexedPlayer): number;
}

/** A statistic as users define it: a sum of other stats, or any function of the raw stats. */
export type StatDefinition = readonly string[] | ((stats: StatLookup) => number);

/** What a function-defined custom statistic may read. */
export interface StatLookup {
  /** Value of a key, e.g. `('mined', 'stone')` or `('minecraft:custom', 'minecraft:jump')`. */
  get(category: string, key: string): number;
  /** Sum of a whole category, e.g. `'mined'`. */
  total(category: string): number;
}

export const builtinStats = [
  'playtime',
  'deaths',
  'player_kills',
  'mob_kills',
  'blocks_mined',
  'items_picked_up',
  'items_crafted',
] as const;

const statPattern = /^[A-Za-z0-9_.:\-/]{1,200}$/;

export class StatResolver {
  private readonly custom = new Map<string, StatDefinition>();
  private revision = 0;

  constructor(private readonly keys: StatKeyTable) {}

  /** Registers (or replaces) a custom statistic. */
  register(name: string, definition: StatDefinition): void {
    if (!/^[a-z0-9_]{1,64}$/.test(name)) throw new Error(`invalid custom stat name "${name}"`);
    if ((builtinStats as readonly string[]).includes(name)) throw new Error(`"${name}" is a built-in stat`);
    if (Array.isArray(definition) && definition.length === 0)
      throw new Error(`custom stat "${name}" sums nothing`);
    this.custom.set(name, definition);
    this.revision++;
  }

  customNames(): string[] {
    return [...this.custom.keys()];
  }

  isValidSyntax(stat: string): boolean {
    return statPattern.test(stat);
  }

  resolve(stat: string): ResolvedStat | null {
    const resolved = this.resolveAt(stat, 0);
    if (resolved) resolved.revision = this.revision;
    return resolved;
  }

  private resolveAt(stat: string, depth: number): ResolvedStat | null {
    const builtin = this.builtin(stat);
    if (builtin) return builtin;
    const custom = this.custom.get(stat);
    if (custom) return depth > 4 ? null : this.resolveCustom(stat, custom, depth);
    return this.resolveRaw(stat);
  }

  private builtin(stat: string): ResolvedStat | null {
    switch (stat) {
      case 'playtime': {
        const playTime = this.keyStat(stat, 'custom', customKeys.playTime);
        const legacy = this.keyStat(stat, 'custom', customKeys.legacyPlayTime);
        return {
          name: stat,
          isPlaytime: true,
          compute: (stats) => (playTime?.compute(stats) || legacy?.compute(stats)) ?? 0,
        };
      }
      case 'deaths':
      case 'player_kills':
      case 'mob_kills':
        return this.keyStat(stat, 'custom', stat) ?? zeroStat(stat);
      case 'blocks_mined':
        return this.categoryStat(stat, 'mined') ?? zeroStat(stat);
      case 'items_picked_up':
        return this.categoryStat(stat, 'picked_up') ?? zeroStat(stat);
      case 'items_crafted':
        return this.categoryStat(stat, 'crafted') ?? zeroStat(stat);
      default:
        return null;
    }
  }

  private resolveCustom(name: string, definition: StatDefinition, depth: number): ResolvedStat | null {
    if (typeof definition === 'function') {
      return { name, isPlaytime: false, compute: (stats) => definition(this.lookup(stats)) };
    }
    const parts = definition.flatMap((part) => {
      const resolved = this.resolveAt(part, depth + 1);
      return resolved ? [resolved] : [];
    });
    return {
      name,
      isPlaytime: false,
      compute: (stats) => parts.reduce((sum, part) => sum + part.compute(stats), 0),
    };
  }

  /** Dotted alias, colon forms, bare category, then a key of `<ns>:custom`. */
  private resolveRaw(stat: string): ResolvedStat | null {
    const dot = stat.indexOf('.');
    if (dot > 0) {
      const category = this.categoryName(stat.slice(0, dot));
      return category ? this.keyStat(stat, category, stat.slice(dot + 1)) : null;
    }
    const parts = stat.split(':');
    if (parts.length === 4) return this.keyStat(stat, `${parts[0]}:${parts[1]}`, `${parts[2]}:${parts[3]}`);
    if (parts.length === 3) return this.keyStat(stat, `${parts[0]}:${parts[1]}`, parts[2]!);
    if (parts.length === 2) {
      const category = this.categoryName(parts[0]!);
      if (category) return this.keyStat(stat, category, parts[1]!);
    }
    const category = this.categoryName(stat);
    if (category) return this.categoryStat(stat, category);
    return this.keyStat(stat, 'custom', stat);
  }

  /** `mined`, `mine`, `minecraft:mined` or a modded category seen in the files. */
  private categoryName(text: string): string | null {
    const bare = text.includes(':') ? text.slice(text.indexOf(':') + 1) : text;
    const alias = categoryAliases[bare.toLowerCase()];
    const namespace = text.includes(':') ? text.slice(0, text.indexOf(':')) : 'minecraft';
    if (alias) return `${namespace}:${alias}`;
    const full = withNamespace(text);
    return this.keys.findCategory(full) === undefined ? null : full;
  }

  private keyStat(name: string, category: string, key: string): ResolvedStat | null {
    const keyId = this.keys.find(withNamespace(category), withNamespace(key));
    if (keyId === undefined) return null;
    return { name, isPlaytime: false, compute: (stats) => statValue(stats, keyId) };
  }

  private categoryStat(name: string, category: string): ResolvedStat | null {
    const categoryId = this.keys.findCategory(withNamespace(category));
    if (categoryId === undefined) return null;
    return { name, isPlaytime: false, compute: (stats) => categoryTotal(stats, categoryId, this.keys) };
  }

  private lookup(stats: CompactStats): StatLookup {
    return {
      get: (category, key) => {
        const resolved = this.categoryName(category);
        const id = resolved ? this.keys.find(resolved, withNamespace(key)) : undefined;
        return id === undefined ? 0 : statValue(stats, id);
      },
      total: (category) => {
        const resolved = this.categoryName(category);
        const id = resolved ? this.keys.findCategory(resolved) : undefined;
        return id === undefined ? 0 : categoryTotal(stats, id, this.keys);
      },
    };
  }
}

/** A built-in nobody has a value for yet: everyone ranks at 0. */
function zeroStat(name: string): ResolvedStat {
  return { name, isPlaytime: false, compute: () => 0 };
}
