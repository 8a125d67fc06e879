/**
 * @module Read model over the index and presence: player lookup, the name-sorted roster and
 * ranked leaderboards. Both are kept up to date from the index's change journal, re-placing
 * only the players that changed, so a live server's autosaves never re-sort 100,000 players
 * while requests wait.
 */
import type { IndexedPlayer } from '../index/indexed-player.js';
import type { StatsSource } from '../index/stats-source.js';
import { normaliseUuid } from '../index/uuid.js';
import type { OnlineReader } from '../online/presence.js';
import { PlayerSlots } from './player-slots.js';
import { type RankedValues, Ranking } from './ranking.js';
import { Roster } from './roster.js';
import { runInSteps, runToEnd } from './run-steps.js';
import type { ResolvedStat } from './stat-resolver.js';

export interface PlayerRef {
  uuid: string;
  name: string;
  online: boolean;
  /** Null for a player known by name only (usercache, RCON) without a statistics file. */
  indexed: IndexedPlayer | null;
}

interface PageRequest {
  limit: number;
  page: number;
  ascending: boolean;
  onlineOnly: boolean;
}

interface RankedEntry {
  rank: number;
  uuid: string;
  name: string;
  online: boolean;
  value: number;
}

/** How much ranking work was done: what tests pin (a change re-places, never re-sorts). */
interface RankingWork {
  /** Rankings and rosters sorted from scratch. */
  rebuilds: number;
  /** Incremental updates applied. */
  updates: number;
  /** Players re-placed by those updates. */
  replaced: number;
  /** Most values a ranking handled in one step while prepared in steps (0: none yet). */
  longestStep: number;
}

interface CachedRanking {
  ranking: Ranking;
  /** Journal version the ranking reflects. */
  version: number;
}

interface OnlineRanking {
  generation: string;
  entries: { slot: number; value: number; rank: number }[];
}

/**
 * Ranking entries (`Ranking.footprint`: two per ranked player) kept at once across every cached
 * ranking, so that asking for many different statistics cannot grow memory without bound: 15
 * rankings of 100,000 players, about 65 MB with the spare arrays each keeps for its next update.
 */
const maxRankedValues = 3_000_000;
/** Online-only rankings kept at once (they are small: online players only). */
const maxOnlineRankings = 64;
/** Players whose value is computed between two yields while a new ranking is prepared. */
const defaultPrepareStep = 5_000;
/** Rounds of `prepare` before it leaves the rest to the synchronous path. */
const maxCatchUpRounds = 8;

export class Directory {
  private readonly slots = new PlayerSlots();
  private readonly roster = new Roster(this.slots);
  /** What the roster reflects: journal version, presence generation, who was online. */
  private rosterVersion = -1;
  private rosterPresence = -1;
  private rosterOnline = new Set<string>();
  private readonly rankings = new Map<string, CachedRanking>();
  /** Rankings being prepared in steps, by key: concurrent first requests share one. */
  private readonly preparing = new Map<string, Promise<void>>();
  private readonly onlineRankings = new Map<string, OnlineRanking>();
  private readonly rosterWork = { rebuilds: 0, updates: 0, replaced: 0, longestStep: 0 };
  /** Work of rankings evicted from the cache, so totals never go down. */
  private readonly retiredWork: RankingWork = { rebuilds: 0, updates: 0, replaced: 0, longestStep: 0 };

  /** `prepareStep`: players per step while a new ranking is prepared (tests make it small). */
  constructor(
    private readonly index: StatsSource,
    private readonly presence: OnlineReader,
    private readonly prepareStep = defaultPrepareStep,
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

  /**
   * Sorts the roster now, at start, and prepares the given rankings (highest first) in steps,
   * one after the other; the promise settles when they are ready. Listening need not wait for
   * them: a request for one of them awaits its preparation, and every step is short.
   */
  warmUp(stats: readonly ResolvedStat[] = []): Promise<void> {
    this.syncRoster();
    this.roster.prepareSearch();
    return (async () => {
      for (const stat of stats) await this.prepare(stat, false);
    })();
  }

  /**
   * Brings the ranking of a statistic up to date in steps, yielding to the event loop between
   * them, so requests for other routes are answered meanwhile: a statistic ranked for the first
   * time is ranked from scratch (values gathered, sorted and packed at most `prepareStep` at a
   * time); one ranked before re-places the players that changed since (at 100,000 players even
   * that merge held the event loop 44 ms in one go on a cold start, profiled in the live
   * benchmark). Call it before `leaderboard`, which then finds the ranking current.
   */
  async prepare(stat: ResolvedStat, ascending: boolean): Promise<void> {
    const key = rankingKey(stat, ascending);
    // Changes published while a round ran are taken by the next one; a round is a few
    // milliseconds, so this ends once the burst of changes does. Bounded all the same:
    // whatever is left is done by `leaderboard` itself.
    for (let round = 0; round < maxCatchUpRounds; round++) {
      if (this.rankings.get(key)?.version === this.index.journal.version) return;
      let preparing = this.preparing.get(key);
      if (!preparing) {
        preparing = this.catchUp(stat, ascending, key).finally(() => this.preparing.delete(key));
        this.preparing.set(key, preparing);
      }
      await preparing;
    }
  }

  private async catchUp(stat: ResolvedStat, ascending: boolean, key: string) {
    const version = this.index.journal.version;
    this.syncRoster();
    const cached = this.rankings.get(key);
    const changed = cached ? this.index.journal.changedSince(cached.version) : null;
    if (cached && changed && changed.size <= this.prepareStep) {
      const changes = [...changed].map((uuid) => {
        const player = this.index.players.get(uuid);
        return { slot: this.slots.slotOf(uuid), value: player ? statOf(stat, player) : null };
      });
      const steps = cached.ranking.updateSteps(changes, this.slots.size, this.prepareStep);
      await runInSteps(steps);
      cached.version = version;
      return;
    }
    // From scratch. Changes made while the values are gathered are after this version: the
    // next round re-places those players from the journal.
    const players = await runInSteps(this.gather(stat, this.prepareStep));
    this.syncRoster();
    const ranking = this.rankings.get(key)?.ranking ?? new Ranking(ascending, this.roster);
    await runInSteps(ranking.rebuildSteps(players, this.slots.size, this.prepareStep));
    this.rankings.set(key, { ranking, version });
    this.evictRankings();
  }

  /** Players sorted by name, filtered by a name substring and online status, one page of them. */
  listPlayers(request: PageRequest & { search: string }): { total: number; players: PlayerRef[] } {
    this.syncRoster();
    const needle = request.search.toLowerCase().replaceAll('\n', '');
    let candidates: ArrayLike<number>;
    if (needle !== '') {
      const found = this.roster.search(needle);
      candidates = request.onlineOnly ? found.filter((slot) => this.isOnline(slot)) : found;
    } else if (request.onlineOnly) {
      candidates = this.onlineSlots().sort((a, b) => this.roster.positionOf(a) - this.roster.positionOf(b));
    } else candidates = this.roster.order;
    const total = candidates.length;
    const players: PlayerRef[] = [];
    const end = Math.min(request.page * request.limit + request.limit, total);
    for (let index = request.page * request.limit; index < end; index++) {
      const slot = candidates[request.ascending ? index : total - 1 - index]!;
      players.push(this.ref(this.slots.uuids[slot]!));
    }
    return { total, players };
  }

  /** One page of a leaderboard: dense ranks, ties ordered by name. */
  leaderboard(stat: ResolvedStat, request: PageRequest): { total: number; entries: RankedEntry[] } {
    const entries: RankedEntry[] = [];
    const start = request.page * request.limit;
    const entry = (slot: number, rank: number, value: number): RankedEntry => {
      const uuid = this.slots.uuids[slot]!;
      return { rank, uuid, name: this.nameOf(uuid), online: this.presence.isOnline(uuid), value };
    };
    if (request.onlineOnly) {
      const ranked = this.onlineRanking(stat, request.ascending).entries;
      for (const row of ranked.slice(start, start + request.limit))
        entries.push(entry(row.slot, row.rank, row.value));
      return { total: ranked.length, entries };
    }
    const ranking = this.ranking(stat, request.ascending);
    const end = Math.min(start + request.limit, ranking.size);
    for (let position = start; position < end; position++)
      entries.push(entry(ranking.slotAt(position), ranking.rankAt(position), ranking.valueAt(position)));
    return { total: ranking.size, entries };
  }

  /** Changes whenever any answer could change (statistics, names, who is online). */
  generation(): string {
    return `${this.index.generation}/${this.presence.generation}`;
  }

  /** Sorting work done so far by the roster and every ranking. */
  work(): RankingWork {
    const total = { ...this.retiredWork };
    for (const work of [this.rosterWork, ...[...this.rankings.values()].map(({ ranking }) => ranking.work)]) {
      total.rebuilds += work.rebuilds;
      total.updates += work.updates;
      total.replaced += work.replaced;
      total.longestStep = Math.max(total.longestStep, work.longestStep);
    }
    return total;
  }

  private ref(uuid: string): PlayerRef {
    return {
      uuid,
      name: this.nameOf(uuid),
      online: this.presence.isOnline(uuid),
      indexed: this.index.players.get(uuid) ?? null,
    };
  }

  private isOnline(slot: number): boolean {
    return this.presence.isOnline(this.slots.uuids[slot]!);
  }

  /** Slots of online players that are listed (all of them are: the roster includes them). */
  private onlineSlots(): number[] {
    return [...this.presence.uuids()].map((uuid) => this.slots.slotOf(uuid));
  }

  /** Listed: players with a statistics file, plus online players who have none yet. */
  private isListed(uuid: string): boolean {
    return this.index.players.has(uuid) || this.presence.isOnline(uuid);
  }

  /** Brings the roster to the index's journal version and the current presence. */
  private syncRoster() {
    const version = this.index.journal.version;
    const presence = this.presence.generation;
    if (this.rosterVersion === version && this.rosterPresence === presence) return;
    const changed = this.rosterVersion < 0 ? null : this.index.journal.changedSince(this.rosterVersion);
    if (changed === null) {
      this.rosterWork.rebuilds++;
      const members = new Set(this.index.players.keys());
      for (const uuid of this.presence.uuids()) members.add(uuid);
      this.roster.rebuild([...members].map((uuid) => [uuid, this.nameOf(uuid)]));
    } else {
      if (presence !== this.rosterPresence) {
        for (const uuid of this.rosterOnline) changed.add(uuid);
        for (const uuid of this.presence.uuids()) changed.add(uuid);
      }
      this.rosterWork.updates++;
      this.rosterWork.replaced += changed.size;
      this.roster.update(
        [...changed].map((uuid) => [uuid, this.isListed(uuid) ? this.nameOf(uuid) : undefined]),
      );
    }
    this.rosterVersion = version;
    this.rosterPresence = presence;
    this.rosterOnline = new Set(this.presence.uuids());
  }

  private ranking(stat: ResolvedStat, ascending: boolean): Ranking {
    this.syncRoster();
    const key = rankingKey(stat, ascending);
    const version = this.index.journal.version;
    let cached = this.rankings.get(key);
    if (cached) {
      // Most recently used last, so eviction takes the least recently used.
      this.rankings.delete(key);
      this.rankings.set(key, cached);
    }
    if (cached?.version === version) return cached.ranking;
    const changed = cached ? this.index.journal.changedSince(cached.version) : null;
    if (cached && changed) {
      cached.ranking.update(
        [...changed].map((uuid) => {
          const player = this.index.players.get(uuid);
          return { slot: this.slots.slotOf(uuid), value: player ? statOf(stat, player) : null };
        }),
        this.slots.size,
      );
    } else {
      cached ??= { ranking: new Ranking(ascending, this.roster), version };
      cached.ranking.rebuild(runToEnd(this.gather(stat, Number.POSITIVE_INFINITY)), this.slots.size);
      this.rankings.set(key, cached);
    }
    cached.version = version;
    this.evictRankings();
    return cached.ranking;
  }

  private evictRankings() {
    let footprint = 0;
    for (const { ranking } of this.rankings.values()) footprint += ranking.footprint;
    for (const [key, { ranking }] of this.rankings) {
      if (footprint <= maxRankedValues || this.rankings.size === 1) return;
      footprint -= ranking.footprint;
      this.retiredWork.rebuilds += ranking.work.rebuilds;
      this.retiredWork.updates += ranking.work.updates;
      this.retiredWork.replaced += ranking.work.replaced;
      this.retiredWork.longestStep = Math.max(this.retiredWork.longestStep, ranking.work.longestStep);
      this.rankings.delete(key);
    }
  }

  /**
   * Every indexed player's slot and value of `stat`, pausing (a bare `yield`) after each `step`
   * players. The index may change during a pause: players added then are left out, those removed
   * are dropped by the rebuild (it ranks only what the roster lists), and the journal hands both
   * to the next round.
   */
  private *gather(stat: ResolvedStat, step: number): Generator<void, RankedValues> {
    const capacity = this.index.players.size;
    const slots = new Int32Array(capacity);
    const values = new Float64Array(capacity);
    let count = 0;
    for (const player of this.index.players.values()) {
      if (count === capacity) break;
      slots[count] = this.slots.slotOf(player.uuid);
      values[count++] = statOf(stat, player);
      if (count % step === 0) yield;
    }
    return { slots: slots.subarray(0, count), values: values.subarray(0, count) };
  }

  /** Ranks among online players only: few players, so sorted from scratch when anything moves. */
  private onlineRanking(stat: ResolvedStat, ascending: boolean): OnlineRanking {
    this.syncRoster();
    const key = `${stat.name}\u0000${stat.revision}\u0000${ascending}`;
    const generation = `${this.index.journal.version}/${this.presence.generation}`;
    const cached = this.onlineRankings.get(key);
    if (cached?.generation === generation) return cached;
    const rows = [...this.presence.uuids()].flatMap((uuid) => {
      const player = this.index.players.get(uuid);
      if (!player) return [];
      const value = statOf(stat, player);
      return [{ slot: this.slots.slotOf(uuid), value: Number.isNaN(value) ? 0 : value, rank: 0 }];
    });
    rows.sort(
      (a, b) =>
        (a.value === b.value ? 0 : a.value < b.value === ascending ? -1 : 1) ||
        this.roster.positionOf(a.slot) - this.roster.positionOf(b.slot),
    );
    rows.forEach((row, position) => {
      row.rank =
        position === 0 ? 1 : rows[position - 1]!.rank + (row.value === rows[position - 1]!.value ? 0 : 1);
    });
    const ranking = { generation, entries: rows };
    this.onlineRankings.delete(key);
    this.onlineRankings.set(key, ranking);
    if (this.onlineRankings.size > maxOnlineRankings)
      this.onlineRankings.delete(this.onlineRankings.keys().next().value!);
    return ranking;
  }
}

function rankingKey(stat: ResolvedStat, ascending: boolean): string {
  return `${stat.name}\u0000${stat.revision}\u0000${ascending}`;
}

function statOf(stat: ResolvedStat, player: IndexedPlayer): number {
  if (stat.computeFor) return stat.computeFor(player);
  return player.stats ? stat.compute(player.stats) : 0;
}
