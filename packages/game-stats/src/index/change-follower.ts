/**
 * @module Following changes after the first build: watchers on the statistics folders and the
 * usercache, a periodic rescan, and the flush that re-reads what changed (a file only when its
 * mtime or size moved), in steps so requests are never held up for long.
 */
import { type FSWatcher, watch } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';
import { type IndexedPlayer, type LocatedFile, statePath } from './indexed-player.js';
import type { ServerFolders } from './server-folders.js';
import type { StatsFileLocator } from './stats-file-locator.js';
import { statsFoldersOf } from './stats-folders.js';

/** Files checked (mtime only) between two yields. */
const checkStep = 500;
/** A file re-read and parsed costs about this many mtime checks (so 25 re-reads per turn). */
const rereadCost = 19;
/**
 * How long after the first change event the batch is read: the game writes a burst of files at
 * an autosave, and a steady stream of writes must not postpone the flush indefinitely.
 */
const flushDelayMs = 150;
/** Paths a rescan collects between two yields. */
const rescanStep = 5_000;
const attachRetryMs = 5_000;
/** How often a network's server folders are checked for disappearing or coming back. */
const serverCheckMs = 2_000;

/** What the follower reads of the index and asks it to do. */
interface FollowedIndex {
  readonly players: ReadonlyMap<string, IndexedPlayer>;
  /** Files checked (mtime) and re-read while following changes. */
  readonly following: { checked: number; reread: number };
  /** Whether the first build is done (until then, changes wait for it). */
  built(): boolean;
  /** Reads one file if its mtime or size changed; returns the player when something changed. */
  readChanged(file: LocatedFile): IndexedPlayer | undefined;
  /** Reads a server's usercache if it changed; resolves whether a name changed. */
  loadUsercache(server: number): Promise<boolean>;
  /** Forgets the usercache's mtime, so that it is read again. */
  forgetUsercache(server: number): void;
  /** Makes the players read so far visible (merged, journalled, a new generation). */
  publish(touched: Set<IndexedPlayer>, changed: boolean): void;
  reportBadName(filePath: string): void;
}

export class ChangeFollower {
  private readonly watchers = new Map<string, FSWatcher>();
  private readonly pending = new Set<string>();
  private flushTimer: NodeJS.Timeout | undefined;
  private rescanTimer: NodeJS.Timeout | undefined;
  private attachTimer: NodeJS.Timeout | undefined;
  private serverCheckTimer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly index: FollowedIndex,
    private readonly locator: StatsFileLocator,
    /** The network's server folders; undefined for a single server. */
    private readonly network: ServerFolders | undefined,
    private readonly logger?: Logger,
  ) {}

  /**
   * Watches the statistics folders and the usercache; rescans every `rescanSeconds` (0: never).
   * Called before the build, changes made while the build reads are caught up right after it.
   */
  watch(rescanSeconds: number): void {
    for (const member of this.locator.members)
      this.watchFolder(member.serverDir, (name) => name === 'usercache.json');
    void this.attachMissingWatchers();
    if (this.network) {
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

  /** After the build: reads what the watchers saw while it ran. */
  catchUp(): void {
    if (this.pending.size > 0) this.scheduleFlush();
  }

  /** Stats every file and re-reads those whose mtime changed; drops vanished ones. */
  async rescan(): Promise<void> {
    if (this.network) await this.followServers();
    const files = await this.locator.list((filePath) => this.index.reportBadName(filePath));
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
    for (const player of this.index.players.values()) {
      for (const file of player.files) {
        const filePath = statePath(player.uuid, file);
        if (!present.has(filePath)) this.pending.add(filePath);
      }
      await breathe();
    }
    for (const server of this.locator.members.keys()) this.pending.add(this.locator.usercachePathOf(server));
    await this.flush();
  }

  close(): void {
    this.closed = true;
    clearInterval(this.serverCheckTimer);
    clearInterval(this.attachTimer);
    for (const watcher of this.watchers.values()) watcher.close();
    clearTimeout(this.flushTimer);
    clearInterval(this.rescanTimer);
  }

  /** Checks the network's server folders and reads again every server that came back. */
  private async followServers(): Promise<void> {
    for (const server of this.network?.check() ?? []) await this.resync(server);
  }

  /** Watches and reads a server's folder again after it came back. */
  private async resync(server: number) {
    const serverDir = this.locator.members[server]!.serverDir;
    for (const [folder, watcher] of this.watchers) {
      if (
        folder !== serverDir &&
        !this.locator.worldsOf(server).some((world) => folder.startsWith(`${world}${path.sep}`))
      )
        continue;
      watcher.close();
      this.watchers.delete(folder);
    }
    // Watched before it is listed: a file written meanwhile is caught either way.
    this.watchFolder(serverDir, (name) => name === 'usercache.json');
    await this.attachMissingWatchers();
    const listed = await this.locator.list((filePath) => this.index.reportBadName(filePath), server);
    for (const file of listed) this.pending.add(file.path);
    for (const player of this.index.players.values())
      for (const file of player.files)
        if (this.locator.worldServer[file.world] === server) this.pending.add(statePath(player.uuid, file));
    this.index.forgetUsercache(server);
    this.pending.add(this.locator.usercachePathOf(server));
    await this.flush();
  }

  private async attachMissingWatchers() {
    for (const folder of this.locator.worldDirs.flatMap(statsFoldersOf)) {
      if (this.watchers.has(folder) || !this.watchFolder(folder)) continue;
      // A folder the build or a rescan listed is followed by its watcher from then on; only a
      // folder created later may hold files written before its watcher existed.
      if (!this.index.built() || this.locator.listedFolders.has(folder)) continue;
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
        // Until the build is done, changes wait for it (it calls catchUp).
        if (this.index.built()) this.scheduleFlush();
      });
      watcher.on('error', (error) => {
        this.logger?.warn({ folder, err: error }, 'watch failed');
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
      const usercacheOf = this.locator.usercacheServer(filePath);
      if (usercacheOf !== -1) {
        changed = (await this.index.loadUsercache(usercacheOf)) || changed;
        continue;
      }
      const located = this.locator.locate(filePath);
      if (!located) continue;
      // A server whose folder is gone keeps its last known data until it comes back.
      if (this.network && !this.network.wasReadable(this.locator.worldServer[located.world]!)) continue;
      const player = this.index.readChanged(located);
      work++;
      this.index.following.checked++;
      if (player) {
        touched.add(player);
        changed = true;
        work += rereadCost;
        this.index.following.reread++;
      }
      if (work >= checkStep) {
        this.index.publish(touched, changed);
        touched = new Set();
        changed = false;
        work = 0;
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    this.index.publish(touched, changed);
  }
}
