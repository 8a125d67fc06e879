/**
 * @module Read model over the index and presence: player lookup, the name-sorted roster and
 * ranked leaderboards, each sorted once per index generation and then served by slicing.
 */
import type { IndexedPlayer, PlayerIndex } from '../index/player-index.js';
import { normaliseUuid } from '../index/uuid.js';
import type { Presence } from '../online/presence.js';
import type { ResolvedStat } from './stat-resolver.js';

export interface PlayerRef {
  uuid: string;
  name: string;
  online: boolean;
  /** Null for a player known by name only (usercache, RCON) without a statistics file. */
  indexed: IndexedPlayer | null;
}

export interface PageRequest {
  limit: number;
  page: number;
  ascending: boolean;
  onlineOnly: boolean;
}

export interface RankedEntry {
  rank: number;
  uuid: string;
  name: string;
  online: boolean;
  value: number;
}

interface Roster {
  generation: string;
  /** Every listed player, by name ascending (case-insensitive), ties by UUID. */
  byName: string[];
  /** Position of each UUID in byName, the tie-breaker of rankings. */
  namePosition: Map<string, number>;
  /** Every lower-case name joined by newlines: one indexOf scan finds all substring matches. */
  haystack: string;
  /** Where each name starts in haystack, by position in byName. */
  nameStarts: Int32Array;
}

interface Ranking {
  generation: string;
  uuids: string[];
  values: Float64Array;
  ranks: Uint32Array;
}

/** Rankings kept at once (one per stat, order and online filter). */
const maxCachedRankings = 256;

export class Directory {
  private roster: Roster | undefined;
  private readonly rankings = new Map<string, Ranking>();

  constructor(
    private readonly index: PlayerIndex,
    private readonly presence: Presence,
  ) {}

  /** Current name, falling back to the UUID when no name is known. */
  nameOf(uuid: string): string {
    return this.index.names.nameOf(uuid) ?? uuid;
  }

  /** A UUID (dashed or not) or an exact current name (case-insensitive). */
  find(id: string): PlayerRef | null {
    const uuid = normaliseUuid(id) ?? this.index.names.uuidOf(id);
    if (!uuid) return null;
    const indexed = this.index.players.get(uuid) ?? null;
    const known =
      indexed !== null || this.index.names.nameOf(uuid) !== undefined || this.presence.isOnline(uuid);
    if (!known) return null;
    return { uuid, name: this.nameOf(uuid), online: this.presence.isOnline(uuid), indexed };
  }

  /** Players sorted by name, filtered by a name substring and online status, one page of them. */
  listPlayers(request: PageRequest & { search: string }): { total: number; players: PlayerRef[] } {
    const roster = this.currentRoster();
    const needle = request.search.toLowerCase().replaceAll('\n', '');
    const candidates = needle === '' ? roster.byName : this.search(roster, needle);
    const matches = request.onlineOnly
      ? candidates.filter((uuid) => this.presence.isOnline(uuid))
      : [...candidates];
    if (!request.ascending) matches.reverse();
    const start = request.page * request.limit;
    return {
      total: matches.length,
      players: matches.slice(start, start + request.limit).map((uuid) => this.ref(uuid)),
    };
  }

  /** UUIDs whose name contains `needle`, in name order. */
  private search(roster: Roster, needle: string): string[] {
    const found: string[] = [];
    let from = 0;
    let position = 0;
    for (;;) {
      const at = roster.haystack.indexOf(needle, from);
      if (at === -1) return found;
      // Names are in haystack order, so the owner of `at` is at or after the last match.
      while (position + 1 < roster.nameStarts.length && roster.nameStarts[position + 1]! <= at) position++;
      found.push(roster.byName[position]!);
      from = roster.nameStarts[position + 1] ?? roster.haystack.length;
    }
  }

  /** One page of a leaderboard: dense ranks, ties ordered by name. */
  leaderboard(stat: ResolvedStat, request: PageRequest): { total: number; entries: RankedEntry[] } {
    const ranking = this.ranking(stat, request.ascending, request.onlineOnly);
    const start = Math.min(request.page * request.limit, ranking.uuids.length);
    const end = Math.min(start + request.limit, ranking.uuids.length);
    const entries: RankedEntry[] = [];
    for (let position = start; position < end; position++) {
      const uuid = ranking.uuids[position]!;
      entries.push({
        rank: ranking.ranks[position]!,
        uuid,
        name: this.nameOf(uuid),
        online: this.presence.isOnline(uuid),
        value: ranking.values[position]!,
      });
    }
    return { total: ranking.uuids.length, entries };
  }

  private ref(uuid: string): PlayerRef {
    return {
      uuid,
      name: this.nameOf(uuid),
      online: this.presence.isOnline(uuid),
      indexed: this.index.players.get(uuid) ?? null,
    };
  }

  /** Changes whenever any answer could change (statistics, names, who is online). */
  generation(): string {
    return `${this.index.generation}/${this.presence.generation}`;
  }

  private generationKey(onlineOnly: boolean): string {
    return onlineOnly ? `${this.index.generation}/${this.presence.generation}` : `${this.index.generation}`;
  }

  /** Players with a statistics file, plus online players who have none yet. */
  private currentRoster(): Roster {
    const generation = `${this.index.generation}/${this.presence.generation}`;
    if (this.roster?.generation === generation) return this.roster;
    const uuids = new Set(this.index.players.keys());
    for (const uuid of this.presence.uuids()) uuids.add(uuid);
    const rows = [...uuids].map((uuid) => ({
      uuid,
      lower: this.nameOf(uuid).toLowerCase().replaceAll('\n', ' '),
    }));
    rows.sort((a, b) => compareText(a.lower, b.lower) || compareText(a.uuid, b.uuid));
    const nameStarts = new Int32Array(rows.length);
    let offset = 0;
    rows.forEach((row, position) => {
      nameStarts[position] = offset;
      offset += row.lower.length + 1;
    });
    this.roster = {
      generation,
      byName: rows.map((row) => row.uuid),
      namePosition: new Map(rows.map((row, position) => [row.uuid, position])),
      haystack: rows.map((row) => row.lower).join('\n'),
      nameStarts,
    };
    return this.roster;
  }

  private ranking(stat: ResolvedStat, ascending: boolean, onlineOnly: boolean): Ranking {
    const key = `${stat.name}\u0000${ascending}\u0000${onlineOnly}`;
    const generation = this.generationKey(onlineOnly);
    const cached = this.rankings.get(key);
    if (cached?.generation === generation) return cached;
    const roster = this.currentRoster();
    const players = [...this.index.players.values()].filter(
      (player) => !onlineOnly || this.presence.isOnline(player.uuid),
    );
    const rows = players.map((player) => ({
      uuid: player.uuid,
      value: player.stats ? stat.compute(player.stats) : 0,
      position: roster.namePosition.get(player.uuid) ?? 0,
    }));
    const direction = ascending ? 1 : -1;
    rows.sort((a, b) => (a.value - b.value) * direction || a.position - b.position);
    const values = Float64Array.from(rows, (row) => row.value);
    const ranks = new Uint32Array(rows.length);
    let rank = 0;
    for (let position = 0; position < rows.length; position++) {
      if (position === 0 || values[position] !== values[position - 1]) rank++;
      ranks[position] = rank;
    }
    const ranking = { generation, uuids: rows.map((row) => row.uuid), values, ranks };
    this.rankings.delete(key);
    this.rankings.set(key, ranking);
    if (this.rankings.size > maxCachedRankings) this.rankings.delete(this.rankings.keys().next().value!);
    return ranking;
  }
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
