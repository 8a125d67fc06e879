/**
 * @module The in-memory index of every player's statistics and name, built once at start and
 * kept fresh by watching the folders (a file is re-read only when its mtime changed), so
 * requests never touch the disk. This class holds the model and records what is read; where the
 * files are (stats-file-locator.ts), the first build (first-build.ts), following changes
 * (change-follower.ts), the snapshot (snapshot-keeper.ts) and a network's server folders
 * (server-folders.ts) each live in their own file.
 */
import { closeSync, fstatSync, openSync, readFileSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';
import { CanonicalStatsReader } from '../stats/canonical-stats.js';
import { parseStatsFile } from '../stats/stats-file.js';
import { ChangeFollower } from './change-follower.js';
import { ChangeJournal } from './change-journal.js';
import { packStats } from './compact-stats.js';
import { readEveryFile, throttledProgress } from './first-build.js';
import {
  bestFilePerWorld,
  combineStats,
  type IndexCounts,
  type IndexedPlayer,
  type LocatedFile,
  ownCopy,
  type StatsFileState,
  sameFile,
} from './indexed-player.js';
import { LocalKeyIds, readCanonical } from './local-key-ids.js';
import { NameBook } from './name-book.js';
import type { ParallelReadResult } from './parallel-read.js';
import { ServerFolders } from './server-folders.js';
import { ServerView } from './server-view.js';
import { legacyProblem, SnapshotKeeper } from './snapshot-keeper.js';
import { StatKeyTable } from './stat-key-table.js';
import { type NetworkMember, StatsFileLocator } from './stats-file-locator.js';
import type { StatsSource } from './stats-source.js';
import {
  parseUsercache,
  parseUsercacheOffThread,
  type UsercacheEntry,
  usercacheWorkerAvailable,
} from './usercache.js';

interface PlayerIndexOptions {
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

/** Usercache names claimed between two yields while listening. */
const usercacheClaimStep = 2_000;

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
  private readonly locator: StatsFileLocator;
  private readonly serverFolders: ServerFolders;
  private readonly follower: ChangeFollower;
  private readonly snapshots: SnapshotKeeper;
  private readonly reportedProblems = new Map<string, string>();
  private readonly canonicalReader = new CanonicalStatsReader();
  private readonly canonicalKeyIds = new LocalKeyIds(this.keys);
  private readonly usercacheMtimeMs: number[];

  constructor(private readonly options: PlayerIndexOptions) {
    const members = options.network ?? [
      { name: 'default', serverDir: options.serverDir, worlds: options.worlds },
    ];
    this.locator = new StatsFileLocator(members);
    this.servers = options.network ? options.network.map((member) => new ServerView(member.name, this)) : [];
    this.serverFolders = new ServerFolders(members, this.servers, () => this.generation++, options.logger);
    this.follower = new ChangeFollower(
      {
        players: this.players,
        following: this.following,
        built: () => this.counts.builtAt !== 0,
        readChanged: (file) => this.readFile(file, true),
        loadUsercache: (server) => this.loadUsercache(server),
        forgetUsercache: (server) => {
          this.usercacheMtimeMs[server] = -1;
        },
        publish: (touched, changed) => this.publish(touched, changed),
        reportBadName: (filePath) => this.reportBadName(filePath),
      },
      this.locator,
      options.network ? this.serverFolders : undefined,
      options.logger,
    );
    const owner = {
      serverDir: options.network
        ? JSON.stringify(members.map((member) => path.resolve(member.serverDir)))
        : path.resolve(options.serverDir),
      worlds: this.locator.worldDirs,
    };
    this.snapshots = new SnapshotKeeper(
      options.snapshotFile,
      owner,
      this,
      (filePath) => this.reportedProblems.get(filePath),
      options.logger,
    );
    this.usercacheMtimeMs = members.map(() => -1);
  }

  /** The usercache of the (first) server. */
  get usercachePath(): string {
    return this.locator.usercachePathOf(0);
  }

  /** Reads every statistics file and the usercache. */
  async build(): Promise<void> {
    const started = performance.now();
    // Parsed on a worker thread while the statistics files are read or restored: after them, on
    // the event loop, it took 0.4 s of a 100,000-player first start (profiled).
    const usercache = Promise.all(this.locator.members.map((_member, server) => this.loadUsercache(server)));
    const listed = await this.locator.list((filePath) => this.reportBadName(filePath));
    const files = await this.snapshots.restore(listed, (file, result) => this.apply(file, result));
    this.counts.restoredFiles = listed.length - files.length;
    await readEveryFile(files, {
      keys: this.keys,
      parallelReadMinFiles: this.options.parallelReadMinFiles ?? 2_000,
      apply: (file, result) => this.apply(file, result),
      read: (file) => this.readFile(file, false),
      progress: throttledProgress(listed.length, this.options.onProgress),
    });
    await usercache;
    for (const player of this.players.values()) this.merge(player);
    this.options.onProgress?.(listed.length, listed.length);
    this.counts.lastBuildMs = Math.round(performance.now() - started);
    this.counts.builtAt = Date.now();
    this.refreshCounts();
    this.generation++;
    // Changes seen by watchers attached before or during the build.
    this.follower.catchUp();
    if (this.snapshots.enabled) {
      if (files.length > 0 || listed.length === 0) void this.snapshots.save();
      else this.snapshots.markSaved();
      this.snapshots.saveEvery(this.options.snapshotSeconds ?? 600);
    }
  }

  /** Writes the snapshot in the background when the index changed since the last one (one write at a time). */
  saveSnapshot(): Promise<void> {
    return this.snapshots.save();
  }

  /**
   * Watches the statistics folders and the usercache; rescans every `rescanSeconds` (0: never).
   * Called before `build()`, changes made while the build reads are caught up right after it.
   */
  watch(rescanSeconds: number): void {
    this.follower.watch(rescanSeconds);
  }

  /** Stats every file and re-reads those whose mtime changed; drops vanished ones. */
  rescan(): Promise<void> {
    return this.follower.rescan();
  }

  close(): void {
    this.follower.close();
    this.snapshots.stop();
  }

  /** Makes the players read so far visible: merged, journalled, a new generation. */
  private publish(touched: Set<IndexedPlayer>, changed: boolean) {
    for (const player of touched) {
      this.merge(player);
      this.journal.record(player.uuid);
    }
    if (changed) this.generation++;
    this.counts.players = this.players.size;
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
      if (!this.serverFolders.isReadable(this.locator.worldServer[file.world]!)) return undefined;
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
   * batch of changes held the event loop about 55 ms (profiled in the live benchmark).
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
    const best = bestFilePerWorld(player);
    player.stats = combineStats(best, this.keys);
    this.servers.forEach((view, server) => {
      const own = best.filter((file) => this.locator.worldServer[file.world] === server);
      if (own.length === 0) {
        view.players.delete(player.uuid);
        return;
      }
      const part = view.players.get(player.uuid) ?? { uuid: player.uuid, stats: null, readAt: 0, files: [] };
      part.stats = combineStats(own, this.keys);
      part.readAt = player.readAt;
      view.players.set(player.uuid, part);
    });
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
    const usercachePath = this.locator.usercachePathOf(server);
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

  private reportBadName(filePath: string) {
    this.reportProblem(filePath, 'file name is not a UUID');
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
