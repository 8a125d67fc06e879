/**
 * @module Keeping the index's snapshot (the file format is index-snapshot.ts): restoring the
 * unchanged files from it at the first build, and rewriting it in the background while the
 * index changes.
 */
import { statSync } from 'node:fs';
import type { Logger } from 'pino';
import { openSnapshot, type SnapshotFile, writeSnapshot } from './index-snapshot.js';
import { type IndexedPlayer, type LocatedFile, statePath } from './indexed-player.js';
import type { ParallelReadResult } from './parallel-read.js';
import type { StatKeyTable } from './stat-key-table.js';

/** The problem recorded for a file of the old format that was read anyway. */
export const legacyProblem = 'legacy pre-1.13 format, read leniently';
/** Files restored between two yields to the event loop. */
const restoreStep = 500;

/** What the keeper reads of the index. */
interface SnapshotSource {
  readonly keys: StatKeyTable;
  readonly players: ReadonlyMap<string, IndexedPlayer>;
  readonly generation: number;
}

export class SnapshotKeeper {
  private timer: NodeJS.Timeout | undefined;
  /** Index generation the snapshot on disk reflects (-1: none written by this process). */
  private savedGeneration = -1;
  private saving: Promise<void> | undefined;

  constructor(
    private readonly file: string | undefined,
    /** Whose snapshot it is: a snapshot of other folders is not used. */
    private readonly owner: { serverDir: string; worlds: string[] },
    private readonly index: SnapshotSource,
    /** The problem last reported for a file, if any. */
    private readonly problemOf: (filePath: string) => string | undefined,
    private readonly logger?: Logger,
  ) {}

  get enabled(): boolean {
    return this.file !== undefined;
  }

  /**
   * Takes every listed file whose mtime and size match the snapshot from it; returns the files
   * that still need reading (changed, new, or all of them without a usable snapshot).
   */
  async restore(
    files: LocatedFile[],
    apply: (file: LocatedFile, result: ParallelReadResult) => void,
  ): Promise<LocatedFile[]> {
    const keys = this.index.keys;
    if (!this.file || keys.keyNames.length > 0 || files.length === 0) return files;
    const byPath = new Map(files.map((file) => [file.path, file]));
    const restored = new Set<string>();
    let snapshot: ReturnType<typeof openSnapshot> = null;
    try {
      snapshot = openSnapshot(this.file, this.owner);
      if (!snapshot) return files;
      // Into an empty table, the snapshot's key ids stay the same ids.
      for (const [category, key] of snapshot.keys) keys.intern(category, key);
      const unchanged = (file: Omit<SnapshotFile, 'stats'>) => {
        if (!byPath.has(file.path)) return false;
        const info = statSync(file.path, { throwIfNoEntry: false });
        return info !== undefined && info.mtimeMs === file.mtimeMs && info.size === file.size;
      };
      for (const record of snapshot.records(unchanged)) {
        apply(byPath.get(record.path)!, { ...record, missing: false });
        restored.add(record.path);
        if (restored.size % restoreStep === 0) await new Promise((resolve) => setImmediate(resolve));
      }
    } catch (error) {
      this.logger?.warn({ file: this.file, err: error }, 'index snapshot unreadable, reading the files');
    } finally {
      snapshot?.close();
    }
    return restored.size === 0 ? files : files.filter((file) => !restored.has(file.path));
  }

  /** Records that the snapshot on disk already reflects the index as it is. */
  markSaved(): void {
    this.savedGeneration = this.index.generation;
  }

  /** Writes the snapshot in the background when the index changed since the last one (one write at a time). */
  save(): Promise<void> {
    const file = this.file;
    if (!file || (this.saving === undefined && this.index.generation === this.savedGeneration))
      return Promise.resolve();
    this.saving ??= (async () => {
      const generation = this.index.generation;
      try {
        await writeSnapshot(file, this.owner, this.keyPairs(), this.snapshotFiles());
        this.savedGeneration = generation;
      } catch (error) {
        this.logger?.warn({ file, err: error }, 'index snapshot not written');
      } finally {
        this.saving = undefined;
      }
    })();
    return this.saving;
  }

  /**
   * Saves every `seconds` (0: never). A method of its own: a timer callback created inside the
   * index's build would share that function's closure, which holds every located file, and keep
   * them all alive for the life of the process.
   */
  saveEvery(seconds: number): void {
    if (seconds <= 0) return;
    this.timer = setInterval(() => void this.save(), seconds * 1_000);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private keyPairs(): [string, string][] {
    const keys = this.index.keys;
    return keys.keyNames.map((key, id) => [keys.categoryNames[keys.categoryOfKey[id]!]!, key]);
  }

  private *snapshotFiles(): Generator<SnapshotFile> {
    for (const player of this.index.players.values()) {
      for (const file of player.files) {
        const filePath = statePath(player.uuid, file);
        const problem = this.problemOf(filePath);
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
}
