/**
 * @module The in-memory index of every player's statistics and name, built once at start and
 * kept fresh by watching the folders (a file is re-read only when its mtime changed), so
 * requests never touch the disk.
 */
import {
  closeSync,
  type FSWatcher,
  fstatSync,
  opendirSync,
  openSync,
  readFileSync,
  statSync,
  watch,
} from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';
import { CanonicalStatsReader } from '../stats/canonical-stats.js';
import { parseStatsFile } from '../stats/stats-file.js';
import { ChangeJournal } from './change-journal.js';
import { type CompactStats, packStats } from './compact-stats.js';
import { openSnapshot, type SnapshotFile, writeSnapshot } from './index-snapshot.js';
import { LocalKeyIds, readCanonical } from './local-key-ids.js';
import { NameBook } from './name-book.js';
import { type ParallelReadResult, parallelReadAvailable, readInParallel } from './parallel-read.js';
import { ServerView } from './server-view.js';
import { StatKeyTable } from './stat-key-table.js';
import { layoutRank, statsFoldersOf } from './stats-folders.js';
import type { StatsSource } from './stats-source.js';
import {
  parseUsercache,
  parseUsercacheOffThread,
  type UsercacheEntry,
  usercacheWorkerAvailable,
} from './usercache.js';
import { normaliseUuid } from './uuid.js';

export interface PlayerIndexOptions {
  serverDir: string;
  /** World folder names (relative to serverDir) or absolute paths. */
  worlds: readonly string[];
  logger?: Logger;
  /** Called with progress while the first build runs. */
  onProgress?: (done: number, total: number) => void;
  /** From this many files on, the first build reads on worker threads (default 2000). */
  parallelReadMinFiles?: number;
  /**
   * Where the index is saved between runs (see index-snapshot.ts): a restart restores every file
   * whose mtime and size are unchanged from it instead of reading it. Absent: no snapshot.
   */
  snapshotFile?: string;
  /** How often the snapshot is rewritten while something changed (default 600; 0: only after the build). */
  snapshotSeconds?: number;
  /**
   * Several servers read as one network: a player's statistics are summed over every server
   * (`serverDir` and `worlds` are then ignored), and `servers` holds each server's own view.
   */
  network?: readonly NetworkMember[];
}

export interface NetworkMember {
  name: string;
  serverDir: string;
  /** World folder names (relative to serverDir) or absolute paths. */
  worlds: readonly string[];
}

interface StatsFileState {
  /** The statistics folder (one shared string per folder, not one per file). */
  folder: string;
  /** File name, kept only when it is not the canonical `<uuid>.json`. */
  name?: string;
  world: number;
  rank: number;
  mtimeMs: number;
  size: number;
  stats: CompactStats | null;
}

export interface IndexedPlayer {
  readonly uuid: string;
  /** Merged statistics of every world; null when no readable file exists. */
  stats: CompactStats | null;
  /** When the statistics were last read from disk (ms since epoch). */
  readAt: number;
  /** Usually one; several when the player has files in several worlds or layouts. */
  files: StatsFileState[];
}

export interface IndexCounts {
  players: number;
  files: number;
  skippedFiles: number;
  lastBuildMs: number;
  builtAt: number;
  /** Files the last build took from the snapshot instead of reading them. */
  restoredFiles: number;
}

/**
 * Files read between two yields to the event loop during the first build; while following
 * changes, files checked (mtime only) between two yields.
 */
const readBatchSize = 500;
/** A file re-read and parsed costs about this many mtime checks (so 25 re-reads per turn). */
const rereadCost = 19;
/**
 * How long after the first change event the batch is read: the game writes a burst of files at
 * an autosave, and a steady stream of writes must not postpone the flush indefinitely.
 */
const flushDelayMs = 150;
const progressEveryMs = 1_000;
const legacyProblem = 'legacy pre-1.13 format, read leniently';
/** Paths a rescan collects between two yields. */
const rescanStep = 5_000;
const attachRetryMs = 5_000;
/** Usercache names claimed between two yields while listening. */
const usercacheClaimStep = 2_000;
/** How often a network's server folders are checked for disappearing or coming back. */
const serverCheckMs = 2_000;

export class PlayerIndex implements StatsSource {
  readonly keys = new StatKeyTable();
  /** Every player whose statistics, presence in the index or name changed, for incremental readers. */
  readonly journal = new ChangeJournal();
  readonly names = new NameBook((uuid) => this.journal.record(uuid));
  /** Players that have at least one statistics file. */
  readonly players = new Map<string, IndexedPlayer>();
  /** Bumped on every change; caches keyed by it stay valid until it moves. */
  generation = 0;
  readonly counts: IndexCounts = {
    players: 0,
    files: 0,
    skippedFiles: 0,
    lastBuildMs: 0,
    builtAt: 0,
    restoredFiles: 0,
  };
  /** Files checked (mtime) and re-read while following changes: what tests pin. */
  readonly following = { checked: 0, reread: 0 };

  /** Each server of a network, with only its statistics; empty for a single server. */
  readonly servers: ServerView[];
  private readonly members: readonly NetworkMember[];
  private readonly worldDirs: string[];
  /** The server (position in `members`) of each world. */
  private readonly worldServer: number[] = [];
  /** Every statistics folder, by path, with its world. */
  private readonly folders = new Map<string, { path: string; world: number }>();
  /** Statistics folders whose files a listing (build or rescan) has seen. */
  private readonly listedFolders = new Set<string>();
  private readonly reportedProblems = new Map<string, string>();
  private readonly watchers = new Map<string, FSWatcher>();
  private readonly canonicalReader = new CanonicalStatsReader();
  private readonly canonicalKeyIds = new LocalKeyIds(this.keys);
  private attachTimer: NodeJS.Timeout | undefined;
  private readonly pending = new Set<string>();
  private flushTimer: NodeJS.Timeout | undefined;
  private rescanTimer: NodeJS.Timeout | undefined;
  private readonly usercacheMtimeMs: number[];
  private serverCheckTimer: NodeJS.Timeout | undefined;
  private closed = false;
  private snapshotTimer: NodeJS.Timeout | undefined;
  /** Index generation the snapshot on disk reflects (-1: none written by this process). */
  private savedGeneration = -1;
  private saving: Promise<void> | undefined;

  constructor(private readonly options: PlayerIndexOptions) {
    this.members = options.network ?? [
      { name: 'default', serverDir: options.serverDir, worlds: options.worlds },
    ];
    this.servers = options.network ? options.network.map((member) => new ServerView(member.name, this)) : [];
    this.worldDirs = this.members.flatMap((member, server) =>
      member.worlds.map((world) => {
        this.worldServer.push(server);
        return path.resolve(member.serverDir, world);
      }),
    );
    this.worldDirs.forEach((worldDir, world) => {
      for (const folder of statsFoldersOf(worldDir)) this.folders.set(folder, { path: folder, world });
    });
    this.usercacheMtimeMs = this.members.map(() => -1);
  }

  /** The usercache of the (first) server. */
  get usercachePath(): string {
    return this.usercachePathOf(0);
  }

  private usercachePathOf(server: number): string {
    return path.join(this.members[server]!.serverDir, 'usercache.json');
  }

  /** Reads every statistics file and the usercache. */
  async build(): Promise<void> {
    const started = performance.now();
    // Parsed on a worker thread while the statistics files are read or restored: after them, on
    // the event loop, it took 0.4 s of a 100,000-player first start (profiled, issue 16).
    const usercache = Promise.all(this.members.map((_member, server) => this.loadUsercache(server)));
    const listed = await this.listFiles();
    const progress = throttledProgress(listed.length, this.options.onProgress);
    const files = await this.restore(listed);
    this.counts.restoredFiles = listed.length - files.length;
    if (files.length >= (this.options.parallelReadMinFiles ?? 2_000) && parallelReadAvailable()) {
      let done = 0;
      await readInParallel(
        files.map((file) => file.path),
        this.keys,
        (position, result) => {
          this.apply(files[position]!, result);
          progress(++done);
        },
      );
    } else {
      for (let start = 0; start < files.length; start += readBatchSize) {
        const end = Math.min(start + readBatchSize, files.length);
        for (let position = start; position < end; position++) this.readFile(files[position]!, false);
        progress(end);
        // Let a host's event loop breathe between batches.
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    await usercache;
    for (const player of this.players.values()) this.merge(player);
    this.options.onProgress?.(listed.length, listed.length);
    this.counts.lastBuildMs = Math.round(performance.now() - started);
    this.counts.builtAt = Date.now();
    this.refreshCounts();
    this.generation++;
    // Changes seen by watchers attached before or during the build.
    if (this.pending.size > 0) this.scheduleFlush();
    if (this.options.snapshotFile) {
      if (files.length > 0 || listed.length === 0) void this.saveSnapshot();
      else this.savedGeneration = this.generation;
      this.startSnapshotTimer();
    }
  }

  /**
   * In a method of its own: a timer callback created inside `build()` shares that function's
   * closure context, which holds the list of every located file, and kept all of them (an object
   * and a path string per file, about 4 heap objects per player) alive for the life of the
   * process, for every full garbage collection to mark (issue 16).
   */
  private startSnapshotTimer() {
    const every = this.options.snapshotSeconds ?? 600;
    if (every <= 0) return;
    this.snapshotTimer = setInterval(() => void this.saveSnapshot(), every * 1_000);
    this.snapshotTimer.unref();
  }

  /**
   * Takes every listed file whose mtime and size match the snapshot from it; returns the files
   * that still need reading (changed, new, or all of them without a usable snapshot).
   */
  private async restore(files: LocatedFile[]): Promise<LocatedFile[]> {
    const snapshotFile = this.options.snapshotFile;
    if (!snapshotFile || this.keys.keyNames.length > 0 || files.length === 0) return files;
    const byPath = new Map(files.map((file) => [file.path, file]));
    const restored = new Set<string>();
    let snapshot: ReturnType<typeof openSnapshot> = null;
    try {
      snapshot = openSnapshot(snapshotFile, this.snapshotOwner());
      if (!snapshot) return files;
      // Into an empty table, the snapshot's key ids stay the same ids.
      for (const [category, key] of snapshot.keys) this.keys.intern(category, key);
      const unchanged = (file: Omit<SnapshotFile, 'stats'>) => {
        if (!byPath.has(file.path)) return false;
        const info = statSync(file.path, { throwIfNoEntry: false });
        return info !== undefined && info.mtimeMs === file.mtimeMs && info.size === file.size;
      };
      for (const record of snapshot.records(unchanged)) {
        this.apply(byPath.get(record.path)!, { ...record, missing: false });
        restored.add(record.path);
        if (restored.size % readBatchSize === 0) await new Promise((resolve) => setImmediate(resolve));
      }
    } catch (error) {
      this.options.logger?.warn(
        { file: snapshotFile, err: error },
        'index snapshot unreadable, reading the files',
      );
    } finally {
      snapshot?.close();
    }
    return restored.size === 0 ? files : files.filter((file) => !restored.has(file.path));
  }

  /** Writes the snapshot in the background when the index changed since the last one (one write at a time). */
  saveSnapshot(): Promise<void> {
    const snapshotFile = this.options.snapshotFile;
    if (!snapshotFile || (this.saving === undefined && this.generation === this.savedGeneration))
      return Promise.resolve();
    this.saving ??= (async () => {
      const generation = this.generation;
      try {
        await writeSnapshot(snapshotFile, this.snapshotOwner(), this.keyPairs(), this.snapshotFiles());
        this.savedGeneration = generation;
      } catch (error) {
        this.options.logger?.warn({ file: snapshotFile, err: error }, 'index snapshot not written');
      } finally {
        this.saving = undefined;
      }
    })();
    return this.saving;
  }

  private snapshotOwner() {
    const serverDir = this.options.network
      ? JSON.stringify(this.members.map((member) => path.resolve(member.serverDir)))
      : path.resolve(this.options.serverDir);
    return { serverDir, worlds: this.worldDirs };
  }

  private keyPairs(): [string, string][] {
    return this.keys.keyNames.map((key, id) => [this.keys.categoryNames[this.keys.categoryOfKey[id]!]!, key]);
  }

  private *snapshotFiles(): Generator<SnapshotFile> {
    for (const player of this.players.values()) {
      for (const file of player.files) {
        const filePath = statePath(player.uuid, file);
        const problem = this.reportedProblems.get(filePath);
        yield {
          path: filePath,
          mtimeMs: file.mtimeMs,
          size: file.size,
          error: file.stats ? null : (problem ?? 'unreadable'),
          legacy: problem === legacyProblem,
          stats: file.stats,
        };
      }
    }
  }

  /**
   * Watches the statistics folders and the usercache; rescans every `rescanSeconds` (0: never).
   * Called before `build()`, changes made while the build reads are caught up right after it.
   */
  watch(rescanSeconds: number): void {
    for (const member of this.members)
      this.watchFolder(member.serverDir, (name) => name === 'usercache.json');
    void this.attachMissingWatchers();
    if (this.options.network) {
      this.serverCheckTimer = setInterval(() => void this.followServers(), serverCheckMs);
      this.serverCheckTimer.unref();
    }
    // A folder created later (the first player of a new layout) gets its watcher within seconds.
    this.attachTimer = setInterval(() => void this.attachMissingWatchers(), attachRetryMs);
    this.attachTimer.unref();
    if (rescanSeconds > 0) {
      this.rescanTimer = setInterval(() => void this.rescan(), rescanSeconds * 1_000);
      this.rescanTimer.unref();
    }
  }

  /** Stats every file and re-reads those whose mtime changed; drops vanished ones. */
  async rescan(): Promise<void> {
    if (this.options.network) await this.followServers();
    const files = await this.listFiles();
    const present = new Set<string>();
    let step = 0;
    // In steps: at 100,000 files each of these loops would hold the event loop for tens of ms.
    const breathe = () =>
      ++step % rescanStep === 0 ? new Promise((resolve) => setImmediate(resolve)) : undefined;
    for (const file of files) {
      present.add(file.path);
      this.pending.add(file.path);
      await breathe();
    }
    for (const player of this.players.values()) {
      for (const file of player.files) {
        const filePath = statePath(player.uuid, file);
        if (!present.has(filePath)) this.pending.add(filePath);
      }
      await breathe();
    }
    for (const server of this.members.keys()) this.pending.add(this.usercachePathOf(server));
    await this.flush();
  }

  /**
   * Checks that every server's folder can still be read. A folder gone or unreadable keeps its
   * players' last known statistics (its files are neither read nor forgotten meanwhile); when
   * it comes back, its watchers are attached again and every file of it is checked.
   */
  private async followServers(): Promise<void> {
    let changed = false;
    const back: number[] = [];
    this.servers.forEach((view, server) => {
      const reason = unreadableReason(this.members[server]!.serverDir);
      if ((reason === null) === view.folder.readable) return;
      view.folder = { readable: reason === null, since: Date.now(), reason };
      changed = true;
      if (reason === null) back.push(server);
      this.options.logger?.[reason === null ? 'info' : 'warn'](
        { server: view.name, folder: this.members[server]!.serverDir, reason },
        reason === null
          ? 'server folder readable again'
          : 'server folder unreadable, keeping its last known data',
      );
    });
    if (changed) this.generation++;
    for (const server of back) await this.resync(server);
  }

  /** Whether a server's folder is readable; a newly unreadable one is recorded (see followServers). */
  private serverReadable(server: number): boolean {
    const view = this.servers[server];
    if (!view) return true;
    if (!view.folder.readable) return false;
    const reason = unreadableReason(this.members[server]!.serverDir);
    if (reason === null) return true;
    view.folder = { readable: false, since: Date.now(), reason };
    this.generation++;
    return false;
  }

  /** Watches and reads a server's folder again after it came back. */
  private async resync(server: number) {
    const serverDir = this.members[server]!.serverDir;
    for (const [folder, watcher] of this.watchers) {
      if (
        folder !== serverDir &&
        !this.worldsOf(server).some((world) => folder.startsWith(`${world}${path.sep}`))
      )
        continue;
      watcher.close();
      this.watchers.delete(folder);
    }
    // Watched before it is listed: a file written meanwhile is caught either way.
    this.watchFolder(serverDir, (name) => name === 'usercache.json');
    await this.attachMissingWatchers();
    const listed = await this.listFiles(server);
    for (const file of listed) this.pending.add(file.path);
    for (const player of this.players.values())
      for (const file of player.files)
        if (this.worldServer[file.world] === server) this.pending.add(statePath(player.uuid, file));
    this.usercacheMtimeMs[server] = -1;
    this.pending.add(this.usercachePathOf(server));
    await this.flush();
  }

  private worldsOf(server: number): string[] {
    return this.worldDirs.filter((_dir, world) => this.worldServer[world] === server);
  }

  close(): void {
    this.closed = true;
    clearInterval(this.serverCheckTimer);
    clearInterval(this.attachTimer);
    for (const watcher of this.watchers.values()) watcher.close();
    clearTimeout(this.flushTimer);
    clearInterval(this.rescanTimer);
    clearInterval(this.snapshotTimer);
  }

  private async attachMissingWatchers() {
    for (const folder of this.worldDirs.flatMap(statsFoldersOf)) {
      if (this.watchers.has(folder) || !this.watchFolder(folder)) continue;
      // A folder the build or a rescan listed is followed by its watcher from then on; only a
      // folder created later may hold files written before its watcher existed.
      if (this.counts.builtAt === 0 || this.listedFolders.has(folder)) continue;
      for (const name of await readdir(folder).catch(() => [])) this.pending.add(path.join(folder, name));
      await this.flush();
    }
  }

  /** Returns whether the folder is now watched. */
  private watchFolder(folder: string, accept: (name: string) => boolean = (name) => name.endsWith('.json')) {
    try {
      const watcher = watch(folder, { persistent: false }, (_event, name) => {
        if (!name || !accept(name.toString())) return;
        this.pending.add(path.join(folder, name.toString()));
        // Until the build is done, changes wait for it (it schedules the flush).
        if (this.counts.builtAt !== 0) this.scheduleFlush();
      });
      watcher.on('error', (error) => {
        this.options.logger?.warn({ folder, err: error }, 'watch failed');
        watcher.close();
        this.watchers.delete(folder);
      });
      this.watchers.set(folder, watcher);
      return true;
    } catch {
      return false;
    }
  }

  private scheduleFlush() {
    this.flushTimer ??= setTimeout(() => {
      this.flushTimer = undefined;
      void this.flush();
    }, flushDelayMs);
  }

  /**
   * Reads the pending paths, publishing what changed every few files (journal, generation) and
   * yielding in between: an autosave of hundreds of files never holds requests up for long, and
   * the first files read show up at once.
   */
  private async flush(): Promise<void> {
    const paths = [...this.pending];
    this.pending.clear();
    let touched = new Set<IndexedPlayer>();
    let changed = false;
    let work = 0;
    for (const filePath of paths) {
      if (this.closed) return;
      const usercacheOf = this.usercacheServer(filePath);
      if (usercacheOf !== -1) {
        changed = (await this.loadUsercache(usercacheOf)) || changed;
        continue;
      }
      const located = this.locate(filePath);
      if (!located) continue;
      // A server whose folder is gone keeps its last known data until it comes back.
      if (this.servers.length > 0 && !this.servers[this.worldServer[located.world]!]!.folder.readable)
        continue;
      const player = this.readFile(located, true);
      work++;
      this.following.checked++;
      if (player) {
        touched.add(player);
        changed = true;
        work += rereadCost;
        this.following.reread++;
      }
      if (work >= readBatchSize) {
        this.publish(touched, changed);
        touched = new Set();
        changed = false;
        work = 0;
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    this.publish(touched, changed);
    this.counts.players = this.players.size;
  }

  /** Makes the players read so far visible: merged, journalled, a new generation. */
  private publish(touched: Set<IndexedPlayer>, changed: boolean) {
    for (const player of touched) {
      this.merge(player);
      this.journal.record(player.uuid);
    }
    if (changed) this.generation++;
  }

  /** Reads one file if its mtime changed; returns the player when something changed. */
  private readFile(file: LocatedFile, onlyIfChanged: boolean): IndexedPlayer | undefined {
    let mtimeMs: number;
    let size: number;
    let text: string;
    let fd: number | undefined;
    try {
      fd = openSync(file.path, 'r');
      ({ mtimeMs, size } = fstatSync(fd));
      const known = this.players.get(file.uuid)?.files.find((state) => sameFile(state, file));
      if (onlyIfChanged && known && known.mtimeMs === mtimeMs && known.size === size) return undefined;
      text = readFileSync(fd, 'utf8');
    } catch {
      // Not a deleted file but a whole server gone: its last known data stays.
      if (!this.serverReadable(this.worldServer[file.world]!)) return undefined;
      return this.forget(file);
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
    // The game's own format through the scanner (about a third of the CPU of JSON.parse and
    // packing a dump: an autosave re-reads hundreds of files while requests wait); anything
    // else through the lenient reader.
    const stats = readCanonical(text, this.canonicalReader, this.canonicalKeyIds);
    if (stats) return this.apply(file, { mtimeMs, size, missing: false, error: null, legacy: false, stats });
    const parsed = parseStatsFile(text);
    return this.apply(file, {
      mtimeMs,
      size,
      missing: false,
      error: parsed.ok ? null : parsed.reason,
      legacy: parsed.ok && parsed.legacy,
      stats: parsed.ok ? packStats([parsed.stats], this.keys) : null,
    });
  }

  /** Records what was read from one file. */
  private apply(file: LocatedFile, result: ParallelReadResult): IndexedPlayer | undefined {
    if (result.missing) return this.forget(file);
    if (result.error) this.reportProblem(file.path, result.error);
    else {
      this.reportedProblems.delete(file.path);
      if (result.legacy) this.reportProblem(file.path, legacyProblem, 'info');
    }
    const player = this.playerFor(file.uuid);
    const state: StatsFileState = {
      folder: file.folder,
      world: file.world,
      rank: file.rank,
      mtimeMs: result.mtimeMs,
      size: result.size,
      stats: result.stats,
    };
    if (file.name !== `${file.uuid}.json`) state.name = file.name;
    const existing = player.files.findIndex((known) => sameFile(known, file));
    if (existing === -1) {
      // An exact-size copy: a push leaves room for 16 more, 17 MB of heap at 100,000 players.
      player.files = [...player.files, state];
    } else {
      this.countFile(player.files[existing]!, -1);
      player.files[existing] = state;
    }
    this.countFile(state, 1);
    player.readAt = Date.now();
    return player;
  }

  private forget(file: LocatedFile): IndexedPlayer | undefined {
    const player = this.players.get(file.uuid);
    const existing = player?.files.findIndex((known) => sameFile(known, file)) ?? -1;
    if (!player || existing === -1) return undefined;
    this.countFile(player.files[existing]!, -1);
    player.files.splice(existing, 1);
    if (player.files.length === 0) this.players.delete(file.uuid);
    this.counts.players = this.players.size;
    return player;
  }

  /**
   * Keeps the file counts up to date one file at a time: recounting 100,000 players after each
   * batch of changes held the event loop about 55 ms (profiled in the live benchmark, issue 16).
   */
  private countFile(state: StatsFileState, delta: 1 | -1) {
    this.counts.files += delta;
    if (!state.stats) this.counts.skippedFiles += delta;
  }

  /**
   * Combines a player's files: per world the newest layout, then summed across worlds (and the
   * servers of a network, each of whose views gets its own sum).
   */
  private merge(player: IndexedPlayer) {
    const bestPerWorld = new Map<number, StatsFileState>();
    for (const file of player.files) {
      const best = bestPerWorld.get(file.world);
      if (!best || file.rank < best.rank) bestPerWorld.set(file.world, file);
    }
    const best = [...bestPerWorld.values()];
    player.stats = this.combine(best);
    this.servers.forEach((view, server) => {
      const own = best.filter((file) => this.worldServer[file.world] === server);
      if (own.length === 0) {
        view.players.delete(player.uuid);
        return;
      }
      const part = view.players.get(player.uuid) ?? { uuid: player.uuid, stats: null, readAt: 0, files: [] };
      part.stats = this.combine(own);
      part.readAt = player.readAt;
      view.players.set(player.uuid, part);
    });
  }

  private combine(files: StatsFileState[]): CompactStats | null {
    const parts = files.flatMap((file) => (file.stats ? [file.stats] : []));
    return parts.length === 1 ? parts[0]! : parts.length === 0 ? null : this.sum(parts);
  }

  private sum(parts: CompactStats[]): CompactStats {
    const dumps = parts.map((part) => {
      const entries: Record<string, Record<string, number>> = {};
      part.keyIds.forEach((keyId, index) => {
        const category = this.keys.categoryNames[this.keys.categoryOfKey[keyId]!]!;
        entries[category] ??= {};
        entries[category][this.keys.keyNames[keyId]!] = part.values[index]!;
      });
      return entries;
    });
    return packStats(dumps, this.keys);
  }

  private playerFor(uuid: string): IndexedPlayer {
    let player = this.players.get(uuid);
    if (!player) {
      // The located uuid is a slice of the file's path: a copy of its own lets the path go.
      const own = ownCopy(uuid);
      player = { uuid: own, stats: null, readAt: 0, files: [] };
      this.players.set(own, player);
    }
    return player;
  }

  /**
   * Reads the usercache when its mtime changed, parsing it on a worker thread (when the compiled
   * worker is there). While listening (after the first build) the names are claimed a few
   * thousand at a time between yields: a real server rewrites it at every login, and at 100,000
   * players parsing it in one go held the event loop 285 ms.
   */
  private async loadUsercache(server: number): Promise<boolean> {
    let parsed: { entries: Iterable<UsercacheEntry>; rejected: number };
    const listening = this.counts.builtAt !== 0;
    const usercachePath = this.usercachePathOf(server);
    try {
      const info = await stat(usercachePath);
      if (info.mtimeMs === this.usercacheMtimeMs[server]) return false;
      this.usercacheMtimeMs[server] = info.mtimeMs;
      parsed = usercacheWorkerAvailable()
        ? await parseUsercacheOffThread(usercachePath)
        : parseUsercache(await readFile(usercachePath, 'utf8'));
    } catch {
      // Read again at the next change or rescan.
      this.usercacheMtimeMs[server] = -1;
      return false;
    }
    const { entries, rejected } = parsed;
    if (rejected > 0) this.reportProblem(usercachePath, `${rejected} unreadable entries skipped`);
    let changed = false;
    let claimed = 0;
    for (const entry of entries) {
      changed = this.names.claim(entry.uuid, entry.name, entry.seenAt) || changed;
      if (listening && ++claimed % usercacheClaimStep === 0)
        await new Promise((resolve) => setImmediate(resolve));
    }
    return changed;
  }

  /** The usercache's server, or -1 for any other path. */
  private usercacheServer(filePath: string): number {
    if (!filePath.endsWith('usercache.json')) return -1;
    return this.members.findIndex((_member, server) => this.usercachePathOf(server) === filePath);
  }

  /** The statistics files of every world (of one server's only, when given). */
  private async listFiles(server?: number): Promise<LocatedFile[]> {
    const files: LocatedFile[] = [];
    for (const [world, worldDir] of this.worldDirs.entries()) {
      if (server !== undefined && this.worldServer[world] !== server) continue;
      for (const folder of statsFoldersOf(worldDir)) {
        let names: string[];
        try {
          names = await readdir(folder);
        } catch {
          continue;
        }
        this.listedFolders.add(folder);
        for (const name of names) {
          const located = this.locate(path.join(folder, name));
          if (located) files.push(located);
          else if (name.endsWith('.json'))
            this.reportProblem(path.join(folder, name), 'file name is not a UUID');
        }
      }
    }
    return files;
  }

  private locate(filePath: string): LocatedFile | undefined {
    const base = path.basename(filePath);
    if (!base.endsWith('.json')) return undefined;
    const uuid = normaliseUuid(base.slice(0, -'.json'.length));
    if (!uuid) return undefined;
    const folder = this.folders.get(path.dirname(filePath));
    if (!folder) return undefined;
    return {
      path: filePath,
      folder: folder.path,
      name: base,
      uuid,
      world: folder.world,
      rank: layoutRank(folder.path),
    };
  }

  /** Logs a file's problem once (again only if the problem changes). */
  private reportProblem(filePath: string, reason: string, level: 'warn' | 'info' = 'warn') {
    if (this.reportedProblems.get(filePath) === reason) return;
    this.reportedProblems.set(filePath, reason);
    this.options.logger?.[level]({ file: filePath, reason }, 'statistics file skipped or read leniently');
  }

  private refreshCounts() {
    let files = 0;
    let skipped = 0;
    for (const player of this.players.values()) {
      for (const file of player.files) {
        files++;
        if (!file.stats) skipped++;
      }
    }
    this.counts.players = this.players.size;
    this.counts.files = files;
    this.counts.skippedFiles = skipped;
  }
}

interface LocatedFile {
  path: string;
  /** The shared string of the folder. */
  folder: string;
  name: string;
  uuid: string;
  world: number;
  rank: number;
}

/** Calls `onProgress` at most once a second. */
function throttledProgress(total: number, onProgress?: (done: number, total: number) => void) {
  let lastReport = Date.now();
  return (done: number) => {
    if (!onProgress || Date.now() - lastReport < progressEveryMs) return;
    lastReport = Date.now();
    onProgress(done, total);
  };
}

/**
 * A string that shares no memory with `text`: V8 represents a substring as a slice that keeps
 * the whole parent string alive (here a file's full path, for every player).
 */
function ownCopy(text: string): string {
  return Buffer.from(text, 'latin1').toString('latin1');
}

/** Why a folder cannot be listed (its error code), or null when it can. */
function unreadableReason(folder: string): string | null {
  try {
    opendirSync(folder).closeSync();
    return null;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? 'unreadable';
  }
}

function sameFile(state: StatsFileState, file: LocatedFile): boolean {
  return state.folder === file.folder && (state.name ?? `${file.uuid}.json`) === file.name;
}

function statePath(uuid: string, state: StatsFileState): string {
  return path.join(state.folder, state.name ?? `${uuid}.json`);
}
