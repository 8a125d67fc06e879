/**
 * @module Where the index's files are: every world of every server, the statistics folders of
 * each world, and which player and world a path on disk belongs to.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { LocatedFile } from './indexed-player.js';
import { layoutRank, statsFoldersOf } from './stats-folders.js';
import { normaliseUuid } from './uuid.js';

export interface NetworkMember {
  name: string;
  serverDir: string;
  /** World folder names (relative to serverDir) or absolute paths. */
  worlds: readonly string[];
}

export class StatsFileLocator {
  readonly worldDirs: string[];
  /** The server (position in `members`) of each world. */
  readonly worldServer: number[] = [];
  /** Every statistics folder, by path, with its world. */
  private readonly folders = new Map<string, { path: string; world: number }>();
  /** Statistics folders whose files a listing (build or rescan) has seen. */
  readonly listedFolders = new Set<string>();

  constructor(readonly members: readonly NetworkMember[]) {
    this.worldDirs = members.flatMap((member, server) =>
      member.worlds.map((world) => {
        this.worldServer.push(server);
        return path.resolve(member.serverDir, world);
      }),
    );
    this.worldDirs.forEach((worldDir, world) => {
      for (const folder of statsFoldersOf(worldDir)) this.folders.set(folder, { path: folder, world });
    });
  }

  usercachePathOf(server: number): string {
    return path.join(this.members[server]!.serverDir, 'usercache.json');
  }

  /** The usercache's server, or -1 for any other path. */
  usercacheServer(filePath: string): number {
    if (!filePath.endsWith('usercache.json')) return -1;
    return this.members.findIndex((_member, server) => this.usercachePathOf(server) === filePath);
  }

  worldsOf(server: number): string[] {
    return this.worldDirs.filter((_dir, world) => this.worldServer[world] === server);
  }

  /** The statistics files of every world (of one server's only, when given). */
  async list(onBadName: (filePath: string) => void, server?: number): Promise<LocatedFile[]> {
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
          else if (name.endsWith('.json')) onBadName(path.join(folder, name));
        }
      }
    }
    return files;
  }

  locate(filePath: string): LocatedFile | undefined {
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
}
