/**
 * @module Restore points kept by the agent on disk (one JSON file each, written atomically with a
 * rename, mode 0600): the full `iptables-save` of both families (and ufw's files on the ufw
 * backend) and a SHA-256 over them, so a restore point outlives the server and the agent (flushed to
 * disk before a pending transaction names it). Retention: 50 automatic, 20 manual (oldest go
 * first), never counting nor removing a point the caller keeps (a pending transaction's).
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { AgentError } from './agent-error.js';
import { writeDurably } from './durable-file.js';
import type { BackendState } from './firewall-backend.js';

export type SnapshotKind = 'automatic' | 'manual';

export interface Snapshot extends BackendState {
  id: string;
  kind: SnapshotKind;
  created_at: string;
  note: string | null;
  /** SHA-256 over the saved state, to show two points are the same and to detect tampering. */
  hash: string;
}

export type SnapshotSummary = Omit<Snapshot, 'iptables' | 'ufw_files'>;

export const retention: Record<SnapshotKind, number> = { automatic: 50, manual: 20 };

export function stateHash({ iptables, ufw_files }: BackendState): string {
  // Timestamps in iptables-save comments change on every run: they are not state.
  const strip = (text: string) =>
    text
      .split('\n')
      .filter((line) => !line.startsWith('#'))
      .join('\n');
  const hash = createHash('sha256').update(`ipv4\n${strip(iptables.ipv4)}\nipv6\n${strip(iptables.ipv6)}`);
  for (const file of Object.keys(ufw_files ?? {}).sort()) hash.update(`\n${file}\n${ufw_files![file]}`);
  return hash.digest('hex');
}

const idPattern = /^[0-9a-f-]{36}$/;

export class SnapshotStore {
  private readonly folder: string;
  constructor(stateDir: string) {
    this.folder = path.join(stateDir, 'snapshots');
  }

  /** `keep`: ids pruning must leave alone (the restore point a pending transaction rolls back to). */
  async create(
    kind: SnapshotKind,
    state: BackendState,
    note: string | null,
    keep: ReadonlySet<string>,
  ): Promise<Snapshot> {
    const snapshot: Snapshot = {
      id: randomUUID(),
      kind,
      created_at: new Date().toISOString(),
      note,
      hash: stateHash(state),
      ...state,
    };
    try {
      await mkdir(this.folder, { recursive: true, mode: 0o700 });
      await writeDurably(path.join(this.folder, `${snapshot.id}.json`), JSON.stringify(snapshot));
    } catch (error) {
      throw new AgentError(
        'FW_SNAPSHOT_FAILED',
        `could not store the restore point: ${(error as Error).message}`,
      );
    }
    await this.prune(kind, keep);
    return snapshot;
  }

  async get(id: string): Promise<Snapshot> {
    if (!idPattern.test(id)) throw new AgentError('FW_SNAPSHOT_NOT_FOUND', 'no such restore point');
    try {
      return JSON.parse(await readFile(path.join(this.folder, `${id}.json`), 'utf8')) as Snapshot;
    } catch {
      throw new AgentError('FW_SNAPSHOT_NOT_FOUND', 'no such restore point');
    }
  }

  /** Newest first. */
  async list(): Promise<SnapshotSummary[]> {
    const names = await readdir(this.folder).catch(() => [] as string[]);
    const snapshots = await Promise.all(
      names
        .filter((name) => name.endsWith('.json'))
        .map((name) => this.get(name.slice(0, -'.json'.length)).catch(() => null)),
    );
    return snapshots
      .filter((s): s is Snapshot => s !== null)
      .map(({ iptables: _iptables, ufw_files: _files, ...summary }) => summary)
      .sort((a, b) => b.created_at.localeCompare(a.created_at));
  }

  private async prune(kind: SnapshotKind, keep: ReadonlySet<string>): Promise<void> {
    const ofKind = (await this.list()).filter((s) => s.kind === kind && !keep.has(s.id));
    for (const old of ofKind.slice(retention[kind])) {
      await rm(path.join(this.folder, `${old.id}.json`), { force: true });
    }
  }
}
