/**
 * @module Restore points kept by the agent on disk (one JSON file each, written atomically with a
 * rename, mode 0600): the full `iptables-save` of both families (and ufw's files on the ufw
 * backend) and a SHA-256 over them, so a restore point outlives the server and the agent (flushed to
 * disk before a pending transaction names it). Retention is the caller's, given with each point
 * created: past it the oldest points of each kind go then (so a lowered retention takes effect
 * at the next point), never counting nor removing a point the caller keeps (a pending
 * transaction's).
 * A blocklist's entries are stored once per content (`snapshots/lists/<sha256>`, one entry a
 * line) and named by their hash from each point, so fifty points of a 100,000-entry list that
 * did not change hold it once, and listing the points never reads an entry.
 */
import { createHash, randomUUID } from 'node:crypto';
import { access, mkdir, readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Retention } from '../agent-protocol/protocol.js';
import type { Blocklist } from '../engine/blocklist.js';
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

type SnapshotSummary = Omit<Snapshot, 'iptables' | 'ufw_files' | 'blocklists'>;

/** A blocklist in a point's file: its entries are in `lists/<content>`. */
interface StoredBlocklist extends Omit<Blocklist, 'entries'> {
  content: string;
}
type StoredSnapshot = Omit<Snapshot, 'blocklists'> & { blocklists?: StoredBlocklist[] };

/** One entry a line, IPv4 first; the family of a line is whether it holds a colon. */
function listContent(list: Blocklist): string {
  return [...list.entries.ipv4, ...list.entries.ipv6].join('\n');
}
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

function stateHash({ iptables, ufw_files, blocklists }: BackendState): string {
  // Timestamps in iptables-save comments change on every run: they are not state.
  const strip = (text: string) =>
    text
      .split('\n')
      .filter((line) => !line.startsWith('#'))
      .join('\n');
  const hash = createHash('sha256').update(`ipv4\n${strip(iptables.ipv4)}\nipv6\n${strip(iptables.ipv6)}`);
  for (const file of Object.keys(ufw_files ?? {}).sort()) hash.update(`\n${file}\n${ufw_files![file]}`);
  for (const list of blocklists ?? []) {
    hash.update(
      `\nblocklist ${JSON.stringify([list.name, list.family, list.comment])} ${sha256(listContent(list))}`,
    );
  }
  return hash.digest('hex');
}

const idPattern = /^[0-9a-f-]{36}$/;

export class SnapshotStore {
  private readonly folder: string;
  private readonly listsFolder: string;
  constructor(stateDir: string) {
    this.folder = path.join(stateDir, 'snapshots');
    this.listsFolder = path.join(this.folder, 'lists');
  }

  /**
   * `keep`: ids pruning must leave alone (the restore point a pending transaction rolls back to);
   * `retention`: how many points of each kind stay, the new one included.
   */
  async create(
    kind: SnapshotKind,
    state: BackendState,
    note: string | null,
    keep: ReadonlySet<string>,
    retention: Retention,
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
      await mkdir(this.listsFolder, { recursive: true, mode: 0o700 });
      const stored: StoredSnapshot = { ...snapshot, blocklists: await this.storeLists(state.blocklists) };
      if (stored.blocklists === undefined) delete stored.blocklists;
      await writeDurably(path.join(this.folder, `${snapshot.id}.json`), JSON.stringify(stored));
    } catch (error) {
      throw new AgentError(
        'FW_SNAPSHOT_FAILED',
        `could not store the restore point: ${(error as Error).message}`,
      );
    }
    await this.prune(keep, retention);
    return snapshot;
  }

  /** The whole point, its blocklists' entries read back (each checked against its hash). */
  async get(id: string): Promise<Snapshot> {
    const { blocklists, ...stored } = await this.stored(id);
    if (blocklists === undefined) return stored;
    const lists: Blocklist[] = [];
    for (const { content, ...list } of blocklists) {
      const text = await readFile(path.join(this.listsFolder, content), 'utf8').catch(() => null);
      if (text === null || sha256(text) !== content) {
        throw new AgentError(
          'FW_SNAPSHOT_NOT_FOUND',
          `the entries of blocklist ${list.name} in this restore point are missing or altered`,
        );
      }
      const entries: Blocklist['entries'] = { ipv4: [], ipv6: [] };
      for (const entry of text === '' ? [] : text.split('\n'))
        entries[entry.includes(':') ? 'ipv6' : 'ipv4'].push(entry);
      lists.push({ ...list, entries });
    }
    return { ...stored, blocklists: lists };
  }

  private async stored(id: string): Promise<StoredSnapshot> {
    if (!idPattern.test(id)) throw new AgentError('FW_SNAPSHOT_NOT_FOUND', 'no such restore point');
    try {
      return JSON.parse(await readFile(path.join(this.folder, `${id}.json`), 'utf8')) as StoredSnapshot;
    } catch {
      throw new AgentError('FW_SNAPSHOT_NOT_FOUND', 'no such restore point');
    }
  }

  /** Each list's entries written once per content; the point names them by hash. */
  private async storeLists(lists: Blocklist[] | undefined): Promise<StoredBlocklist[] | undefined> {
    if (lists === undefined) return undefined;
    const stored: StoredBlocklist[] = [];
    for (const { entries: _entries, ...list } of lists) {
      const text = listContent({ ...list, entries: _entries });
      const content = sha256(text);
      const file = path.join(this.listsFolder, content);
      if (
        !(await access(file).then(
          () => true,
          () => false,
        ))
      )
        await writeDurably(file, text);
      stored.push({ ...list, content });
    }
    return stored;
  }

  /** Newest first. */
  async list(): Promise<SnapshotSummary[]> {
    const names = await readdir(this.folder).catch(() => [] as string[]);
    const snapshots = await Promise.all(
      names
        .filter((name) => name.endsWith('.json'))
        .map((name) => this.stored(name.slice(0, -'.json'.length)).catch(() => null)),
    );
    return snapshots
      .filter((s): s is StoredSnapshot => s !== null)
      .map(({ iptables: _iptables, ufw_files: _files, blocklists: _lists, ...summary }) => summary)
      .sort((a, b) => b.created_at.localeCompare(a.created_at));
  }

  /**
   * Drops the oldest points of each kind past retention (both kinds: a retention lowered since
   * the last point of the other kind applies too), then the list contents no point names any more.
   */
  private async prune(keep: ReadonlySet<string>, retention: Retention): Promise<void> {
    const names = (await readdir(this.folder).catch(() => [] as string[])).filter((n) => n.endsWith('.json'));
    const points = (
      await Promise.all(names.map((name) => this.stored(name.slice(0, -'.json'.length)).catch(() => null)))
    )
      .filter((point): point is StoredSnapshot => point !== null)
      .sort((a, b) => b.created_at.localeCompare(a.created_at));
    const old = (['automatic', 'manual'] as const).flatMap((kind) =>
      points.filter((p) => p.kind === kind && !keep.has(p.id)).slice(retention[kind]),
    );
    for (const point of old) await rm(path.join(this.folder, `${point.id}.json`), { force: true });
    if (!old.some((point) => (point.blocklists ?? []).length > 0)) return;
    const gone = new Set(old.map((point) => point.id));
    const named = new Set(
      points.filter((p) => !gone.has(p.id)).flatMap((p) => (p.blocklists ?? []).map((list) => list.content)),
    );
    for (const content of await readdir(this.listsFolder).catch(() => [] as string[])) {
      if (!named.has(content)) await rm(path.join(this.listsFolder, content), { force: true });
    }
  }
}
