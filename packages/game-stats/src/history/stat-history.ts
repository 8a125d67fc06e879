/**
 * @module Periodic snapshots of every player's statistics, for leaderboards over a window. The
 * statistics files only count up; what a player gained since a time is their value now minus
 * their value at the last snapshot taken at or before it.
 *
 * In memory each player has a timeline: the snapshot times at which their statistics had
 * changed, with the record they then had. A record is the index's own (immutable) record object,
 * so a snapshot costs nothing for players who did not move, and a mover's former record is kept
 * alive only while a snapshot still needs it. On disk see history-files.ts; the history is
 * pruned by age (`history-retention-days`) and size (`history-max-mb`), the oldest snapshots
 * first, the new oldest rewritten as a full one.
 */
import type { Logger } from 'pino';
import { type CompactStats, packStats } from '../index/compact-stats.js';
import type { StatsSource } from '../index/stats-source.js';
import type { StatDump } from '../stats/stats-file.js';
import {
  type HistoryFile,
  listHistoryFiles,
  readHistoryFile,
  removeHistoryFile,
  writeHistoryFile,
} from './history-files.js';

export interface StatHistoryOptions {
  /** Where the snapshot files live; undefined: in memory only (lost at restart). */
  folder: string | undefined;
  intervalSeconds: number;
  retentionMs: number;
  maxBytes: number;
  logger?: Logger;
}

/** Players and their records at one moment, position by position. */
interface PlayerRecords {
  uuids: string[];
  records: (CompactStats | null)[];
}

interface Timeline {
  times: number[];
  records: CompactStats[];
}

/** Where a window starts: the snapshot its gains are measured from. */
export interface WindowStart {
  /** Time of that snapshot. */
  from: number;
  /** False when the window starts before the first snapshot (measured from the first instead). */
  complete: boolean;
}

/**
 * Players handled between two yields to the event loop by the loops over every player (a
 * snapshot, the full rewrite of the oldest one, the restore): at 100,000 players each of them
 * held the event loop for hundreds of ms in one go.
 */
const playersPerStep = 2_000;

export class StatHistory {
  private readonly timelines = new Map<string, Timeline>();
  /** Snapshot times, oldest first, with the size of each one's file (0 in memory only). */
  private readonly snapshots: { time: number; bytes: number }[] = [];
  private timer: NodeJS.Timeout | undefined;
  private taking: Promise<void> | undefined;
  /** Settles once the snapshot being taken is in use (before its file is written). */
  private captured: Promise<void> | undefined;
  /** Until the history on disk is restored and the first snapshot is in use. */
  private readying: Promise<void> | undefined;
  private closed = false;

  constructor(
    private readonly index: StatsSource,
    private readonly options: StatHistoryOptions,
  ) {}

  /**
   * Takes a snapshot now, restores the snapshots on disk (read asynchronously, in steps) and puts
   * the new one after them, then takes one every interval. The first one is in use when this
   * resolves; its file (every player's values on a first start) is written after. A host need
   * not wait: `whenReady()` says when answers that use the history may be given.
   */
  start(): Promise<void> {
    // The values of now, by reference (records are immutable): the snapshot is of this moment,
    // however long the restore takes and whatever changes meanwhile.
    const now = { time: Date.now(), ...this.currentRecords() };
    this.readying ??= this.restoreThenSnapshot(now).finally(() => {
      this.readying = undefined;
    });
    return this.readying;
  }

  /** Resolves once the history is restored and a snapshot is in use; undefined when it already is. */
  whenReady(): Promise<void> | undefined {
    return this.readying;
  }

  private async restoreThenSnapshot(first: PlayerRecords & { time: number }): Promise<void> {
    await this.restore();
    if (this.closed) return;
    // A failed snapshot is logged and the next one tried: never an unhandled rejection.
    const failed = (error: unknown) => this.options.logger?.warn({ err: error }, 'history snapshot failed');
    const next = () => this.snapshot().catch(failed);
    this.taking = this.take(first).finally(() => {
      this.taking = undefined;
    });
    this.taking.catch(failed);
    await this.captured;
    if (this.closed) return;
    this.timer = setInterval(next, this.options.intervalSeconds * 1000);
    this.timer.unref();
  }

  close(): void {
    this.closed = true;
    clearInterval(this.timer);
  }

  /** Resolves once the snapshot being taken, if any, is written (tests, benchmarks). */
  async idle(): Promise<void> {
    await this.taking?.catch(() => {});
  }

  /** The snapshot gains since `time` are measured from. */
  windowStart(time: number): WindowStart {
    const found = lastAtOrBefore(this.snapshots.length, (at) => this.snapshots[at]!.time, time);
    if (found < 0) return { from: this.snapshots[0]?.time ?? time, complete: false };
    return { from: this.snapshots[found]!.time, complete: true };
  }

  /** A player's statistics at the snapshot of `time` (null: no statistics then). */
  recordAt(uuid: string, time: number): CompactStats | null {
    const timeline = this.timelines.get(uuid);
    if (!timeline) return null;
    const found = lastAtOrBefore(timeline.times.length, (at) => timeline.times[at]!, time);
    return found < 0 ? null : timeline.records[found]!;
  }

  status() {
    return {
      interval_seconds: this.options.intervalSeconds,
      snapshots: this.snapshots.length,
      first_at: this.snapshots[0] ? new Date(this.snapshots[0].time).toISOString() : null,
      last_at: this.snapshots.at(-1) ? new Date(this.snapshots.at(-1)!.time).toISOString() : null,
      bytes: this.snapshots.reduce((sum, snapshot) => sum + snapshot.bytes, 0),
    };
  }

  /**
   * Takes a snapshot of the values of now (one at a time), then applies the retention policy.
   * The snapshot is in use once every player is recorded (in steps); the promise settles once
   * its file is written and pruned.
   */
  snapshot(): Promise<void> {
    this.taking ??= this.take().finally(() => {
      this.taking = undefined;
    });
    return this.taking;
  }

  private async take(records = { time: Date.now(), ...this.currentRecords() }): Promise<void> {
    let markCaptured = () => {};
    this.captured = new Promise((resolve) => {
      markCaptured = resolve;
    });
    let file: HistoryFile;
    try {
      file = await this.capture(records);
    } finally {
      markCaptured();
    }
    const snapshot = this.snapshots.at(-1)!;
    snapshot.bytes = await this.write(file);
    await this.prune(file.time);
    // The retention may have moved the oldest snapshot; health's bytes have changed.
    this.index.generation++;
  }

  /**
   * Records every player whose statistics moved since their last record, in steps; the snapshot
   * is in use (listed) once every player is recorded, so a window never sees half of it.
   */
  private async capture({
    time: at,
    uuids,
    records,
  }: PlayerRecords & { time: number }): Promise<HistoryFile> {
    const last = this.snapshots.at(-1)?.time ?? 0;
    // Two snapshots in one millisecond would share a file name.
    const time = Math.max(at, last + 1);
    const full = this.snapshots.length === 0;
    const file: HistoryFile = { time, full, keys: [], players: [] };
    const keyNumbers = new Map<number, number>();
    for (let position = 0; position < uuids.length; position++) {
      if ((position + 1) % playersPerStep === 0) await nextTurn();
      const uuid = uuids[position]!;
      const stats = records[position];
      if (!stats) continue;
      let timeline = this.timelines.get(uuid);
      const previous = timeline?.records.at(-1) ?? null;
      if (previous === stats) continue;
      const changes = changedEntries(previous, stats);
      if (changes.length === 0) continue;
      if (!timeline) {
        timeline = { times: [], records: [] };
        this.timelines.set(uuid, timeline);
      }
      timeline.times.push(time);
      timeline.records.push(stats);
      file.players.push([uuid, this.numbered(changes, keyNumbers, file)]);
    }
    // In use before its file is written (the timelines above already hold it).
    this.snapshots.push({ time, bytes: 0 });
    this.index.generation++;
    return file;
  }

  /** Every player's record right now (two arrays of references: cheap at 100,000 players). */
  private currentRecords(): PlayerRecords {
    const uuids: string[] = [];
    const records: (CompactStats | null)[] = [];
    for (const [uuid, player] of this.index.players) {
      uuids.push(uuid);
      records.push(player.stats);
    }
    return { uuids, records };
  }

  /** `[keyId, value, ...]` with each key id replaced by its number in `file.keys`. */
  private numbered(changes: number[], keyNumbers: Map<number, number>, file: HistoryFile): number[] {
    const keys = this.index.keys;
    for (let at = 0; at < changes.length; at += 2) {
      const keyId = changes[at]!;
      let number = keyNumbers.get(keyId);
      if (number === undefined) {
        number = file.keys.length;
        keyNumbers.set(keyId, number);
        file.keys.push([keys.categoryNames[keys.categoryOfKey[keyId]!]!, keys.keyNames[keyId]!]);
      }
      changes[at] = number;
    }
    return changes;
  }

  private async write(file: HistoryFile): Promise<number> {
    const folder = this.options.folder;
    if (!folder) return 0;
    try {
      return await writeHistoryFile(folder, file);
    } catch (error) {
      this.options.logger?.warn({ err: error, folder }, 'history snapshot not written');
      return 0;
    }
  }

  /** Drops the snapshots past the retention age or the size bound, oldest first. */
  private async prune(now: number): Promise<void> {
    const tooOld = now - this.options.retentionMs;
    const total = () => this.snapshots.reduce((sum, snapshot) => sum + snapshot.bytes, 0);
    let dropped = 0;
    while (
      this.snapshots.length - dropped > 1 &&
      (this.snapshots[dropped + 1]!.time <= tooOld || total() > this.options.maxBytes)
    ) {
      this.snapshots[dropped]!.bytes = 0;
      dropped++;
    }
    if (dropped === 0) return;
    const removed = this.snapshots.splice(0, dropped);
    const oldest = this.snapshots[0]!;
    // Every timeline starts at the new oldest snapshot with what the player had then.
    const file: HistoryFile = { time: oldest.time, full: true, keys: [], players: [] };
    const keyNumbers = new Map<number, number>();
    // In steps: at 100,000 players this rewrite is every player's values (21 MB). A window asked
    // meanwhile finds the same record in a trimmed timeline as in one not trimmed yet.
    let visited = 0;
    for (const [uuid, timeline] of this.timelines) {
      if (++visited % playersPerStep === 0) await nextTurn();
      let keep = 0;
      while (keep + 1 < timeline.times.length && timeline.times[keep + 1]! <= oldest.time) keep++;
      timeline.times.splice(0, keep);
      timeline.records.splice(0, keep);
      timeline.times[0] = Math.max(timeline.times[0]!, oldest.time);
      if (timeline.times[0] === oldest.time)
        file.players.push([
          uuid,
          this.numbered(changedEntries(null, timeline.records[0]!), keyNumbers, file),
        ]);
    }
    oldest.bytes = await this.write(file);
    if (this.options.folder)
      for (const snapshot of removed) await removeHistoryFile(this.options.folder, snapshot.time);
  }

  /** Rebuilds the timelines from the files on disk; a broken file ends the history there. */
  private async restore(): Promise<void> {
    const folder = this.options.folder;
    if (!folder) return;
    const running = new Map<string, Map<number, number>>();
    for (const { time, bytes } of await listHistoryFiles(folder)) {
      let file: HistoryFile;
      try {
        file = await readHistoryFile(folder, time);
      } catch (error) {
        this.options.logger?.warn({ err: error, time }, 'history snapshot unreadable: history kept up to it');
        break;
      }
      if (this.snapshots.length === 0 && !file.full) break;
      const keyIds = file.keys.map(([category, key]) => this.index.keys.intern(category, key));
      let visited = 0;
      for (const [uuid, changes] of file.players) {
        if (++visited % playersPerStep === 0) await nextTurn();
        let values = running.get(uuid);
        if (!values || file.full) {
          values = new Map();
          running.set(uuid, values);
        }
        for (let at = 0; at + 1 < changes.length; at += 2)
          values.set(keyIds[changes[at]!]!, changes[at + 1]!);
        let timeline = this.timelines.get(uuid);
        if (!timeline) {
          timeline = { times: [], records: [] };
          this.timelines.set(uuid, timeline);
        }
        timeline.times.push(time);
        timeline.records.push(this.recordOf(values));
      }
      this.snapshots.push({ time, bytes });
    }
    // A player unchanged since the last snapshot shares the index's record.
    let visited = 0;
    for (const [uuid, timeline] of this.timelines) {
      if (++visited % playersPerStep === 0) await nextTurn();
      const current = this.index.players.get(uuid)?.stats;
      if (current && changedEntries(timeline.records.at(-1)!, current).length === 0)
        timeline.records[timeline.records.length - 1] = current;
    }
  }

  private recordOf(values: Map<number, number>): CompactStats {
    const keys = this.index.keys;
    const dump: StatDump = {};
    for (const [keyId, value] of values) {
      if (value === 0) continue;
      const category = keys.categoryNames[keys.categoryOfKey[keyId]!]!;
      dump[category] ??= {};
      dump[category][keys.keyNames[keyId]!] = value;
    }
    return packStats([dump], keys);
  }
}

function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Index of the last of `count` ascending times at or before `time` (-1: none). */
function lastAtOrBefore(count: number, timeAt: (at: number) => number, time: number): number {
  let low = 0;
  let high = count - 1;
  let found = -1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    if (timeAt(middle) <= time) {
      found = middle;
      low = middle + 1;
    } else high = middle - 1;
  }
  return found;
}

/** `[keyId, value, ...]` of what differs from `before` (a key gone is 0). */
export function changedEntries(before: CompactStats | null, after: CompactStats): number[] {
  const changes: number[] = [];
  const beforeIds = before?.keyIds ?? new Uint32Array(0);
  const beforeValues = before?.values ?? new Float64Array(0);
  let left = 0;
  let right = 0;
  while (left < beforeIds.length || right < after.keyIds.length) {
    const leftId = left < beforeIds.length ? beforeIds[left]! : Number.POSITIVE_INFINITY;
    const rightId = right < after.keyIds.length ? after.keyIds[right]! : Number.POSITIVE_INFINITY;
    if (leftId === rightId) {
      if (beforeValues[left] !== after.values[right]) changes.push(rightId, after.values[right]!);
      left++;
      right++;
    } else if (leftId < rightId) {
      changes.push(leftId, 0);
      left++;
    } else {
      changes.push(rightId, after.values[right]!);
      right++;
    }
  }
  return changes;
}
