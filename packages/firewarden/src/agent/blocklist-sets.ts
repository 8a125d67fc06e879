/**
 * @module The kernel sets of the blocklists (ipset `hash:net`, `fw4-<name>` and `fw6-<name>`),
 * on every backend: iptables and ufw load the same sets. A write is one `ipset restore` fed on
 * stdin: each list is built whole in a staging set (`fwn4-<name>`), swapped with the live one
 * (or renamed into place) and the old content destroyed, so a rule matching the set sees the old
 * list or the new one, never a half-built one. The input is streamed: ipset fills the staging
 * sets (which no rule names) while the agent takes its restore point, and the swap lines follow
 * only once the caller commits (`stage`). Lists are destroyed in a second restore, after
 * the rules that named them are gone. The kernel holds the entries; a list's family and comment,
 * which a set cannot carry, are kept in `blocklists.json` beside the restore points.
 * Reading 100,000 entries back (`ipset save`) for every restore point would cost more than
 * writing them: the agent remembers the entries it last read or wrote and checks them against
 * the kernel's count of each set (`ipset list -t`, no entry printed); a list whose count
 * differs, or that it does not know, is read again.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Family } from '../engine/addresses.js';
import {
  type Blocklist,
  type BlocklistFamily,
  type BlocklistSummary,
  listOfSet,
  setMaxElements,
  setName,
  stagingSetName,
} from '../engine/blocklist.js';
import { AgentError } from './agent-error.js';
import { CommandError, type CommandRunner } from './command-runner.js';
import { writeDurably } from './durable-file.js';
import { clip } from './firewall-backend.js';
import { families } from './iptables-backend.js';

/**
 * Told of every list written to or destroyed in the kernel: the ufw backend keeps a copy on disk
 * from which ufw's start creates the sets again (see `ufw-blocklist-hook.ts`).
 */
export interface SetsMirror {
  written(lists: readonly Blocklist[]): Promise<void>;
  destroyed(names: readonly string[]): Promise<void>;
}

type Metadata = Record<string, { family: BlocklistFamily; comment: string | null }>;

/** What `ipset save` says of our sets: each list's entries, and every set name present. */
export interface SavedSets {
  lists: Blocklist[];
  present: Set<string>;
}

const ipsetFamily: Record<Family, string> = { ipv4: 'inet', ipv6: 'inet6' };

/** A restore of 1,000,000 entries takes a few seconds on a slow host; the default 20 s is kept per 250,000. */
const restoreTimeoutMs = (entries: number) => 20_000 * Math.max(1, Math.ceil(entries / 250_000));

/** The lists being built in their staging sets by a running `ipset restore` (see `stage`). */
export interface StagedLists {
  /** Swaps the staged sets in (renamed when new) and waits for ipset: what it refused is thrown. */
  commit(): Promise<void>;
  /** Drops the staging sets (nothing a packet meets changed) and waits for ipset; a no-op after `commit`. */
  abandon(): Promise<void>;
}

export const nothingStaged: StagedLists = { commit: async () => undefined, abandon: async () => undefined };

/** Entries per part of the streamed restore input: ipset starts on the first part while the rest is built. */
const entriesPerPart = 10_000;

export class BlocklistSets {
  private readonly metadataFile: string;

  constructor(
    private readonly run: CommandRunner,
    stateDir: string,
    private readonly mirror?: SetsMirror,
  ) {
    this.metadataFile = path.join(stateDir, 'blocklists.json');
  }

  /** The entries last read or written, per list; null until the first read (or after a failed write). */
  private known: Map<string, Blocklist['entries']> | null = null;

  /** Every list with its entries, sorted by name; none where ipset is not installed. */
  async read(): Promise<Blocklist[]> {
    return (await this.saved()).lists;
  }

  /** Every list with its number of entries (`ipset list -t`: no entry is printed). */
  async summaries(): Promise<BlocklistSummary[]> {
    const lists = listCounts(await this.terse());
    const metadata = await this.metadata();
    return [...lists.keys()]
      .sort()
      .map((name) => ({ ...describe(name, metadata), entries: lists.get(name)! }));
  }

  /** Every set's number of entries, by name (`ipset list -t`). */
  private async terse(): Promise<Map<string, number>> {
    const text = await this.ipset(['list', '-t'], { optional: true });
    const counts = new Map<string, number>();
    let set = '';
    for (const line of text.split('\n')) {
      if (line.startsWith('Name: ')) {
        set = line.slice('Name: '.length).trim();
        counts.set(set, 0);
      } else if (line.startsWith('Number of entries: ')) {
        counts.set(set, Number(line.slice('Number of entries: '.length)));
      }
    }
    return counts;
  }

  /** The lists whose set of the address's family holds it (`ipset test`, one per list). */
  async holding(address: string, family: Family, names: readonly string[]): Promise<string[]> {
    const held: string[] = [];
    for (const name of names) {
      const result = await this.run(['ipset', 'test', setName(name, family), address]);
      if (result.code === 0) held.push(name);
    }
    return held;
  }

  /**
   * Makes the kernel hold `lists` (each whole, swapped in atomically), leaving the other lists as
   * they are; `present` is every set name now in the kernel (from `read` or `present`).
   */
  async write(lists: readonly Blocklist[], present: ReadonlySet<string>): Promise<void> {
    await this.stage(lists, present).commit();
  }

  /**
   * Starts building `lists` in their staging sets with one `ipset restore` fed as it goes: no rule
   * names a staging set, so nothing a packet meets changes until `commit` writes the swap lines.
   * `abandon` ends the input with their destruction instead. ipset waits on its input until one
   * of the two is called. The process starts at once; its input once `present` (every set name in
   * the kernel) is known, and none if that read fails (ipset then exits having done nothing).
   */
  stage(
    lists: readonly Blocklist[],
    present: ReadonlySet<string> | Promise<ReadonlySet<string>>,
  ): StagedLists {
    if (lists.length === 0) return nothingStaged;
    let decide: (place: boolean) => void = () => undefined;
    const placed = new Promise<boolean>((resolve) => {
      decide = resolve;
    });
    const entries = lists.reduce((sum, list) => sum + list.entries.ipv4.length + list.entries.ipv6.length, 0);
    const restored = this.remembering(() =>
      this.restore(streamedRestoreInput(lists, present, placed), restoreTimeoutMs(entries)),
    );
    // Awaited by commit or abandon; a refusal seen before either is theirs to report.
    restored.catch(() => undefined);
    return {
      commit: async () => {
        decide(true);
        await restored;
        for (const list of lists) this.known?.set(list.name, list.entries);
        await this.mirror?.written(lists);
      },
      abandon: async () => {
        decide(false);
        await restored.catch(() => undefined);
      },
    };
  }

  /** Destroys the lists' sets (those present); the rules naming them must be gone already. */
  async destroy(names: readonly string[], present: ReadonlySet<string>): Promise<void> {
    const lines = names.flatMap((name) =>
      families
        .map((family) => setName(name, family))
        .filter((set) => present.has(set))
        .map((set) => `destroy ${set}`),
    );
    if (lines.length > 0) {
      await this.remembering(() => this.restore(`${lines.join('\n')}\n`, restoreTimeoutMs(0)));
      for (const name of names) this.known?.delete(name);
    }
    if (names.length > 0) await this.mirror?.destroyed(names);
  }

  /** A write that fails may have done part of its work: what the kernel holds is read again. */
  private async remembering(write: () => Promise<void>): Promise<void> {
    try {
      await write();
    } catch (error) {
      this.known = null;
      throw error;
    }
  }

  /** Reads the counts back: each written list must hold what was meant, in each family. */
  async verify(lists: readonly Blocklist[]): Promise<void> {
    if (lists.length === 0) return;
    const held = new Map((await this.summaries()).map((summary) => [summary.name, summary.entries]));
    for (const list of lists) {
      const expected = list.entries.ipv4.length + list.entries.ipv6.length;
      if (held.get(list.name) !== expected) {
        throw new AgentError(
          'FW_APPLY_FAILED',
          `the kernel holds ${held.get(list.name) ?? 'no'} entries in blocklist ${list.name}, not ${expected}`,
        );
      }
    }
  }

  /** Records each list's family and comment; `lists` is every list there is now. */
  async recordMetadata(lists: readonly Pick<Blocklist, 'name' | 'family' | 'comment'>[]): Promise<void> {
    const metadata: Metadata = {};
    for (const { name, family, comment } of lists) metadata[name] = { family, comment };
    await writeDurably(this.metadataFile, JSON.stringify(metadata));
  }

  /**
   * Every list's entries and every set name: the remembered entries of each list whose kernel
   * sets hold as many entries, the others read with `ipset save` (all of them the first time).
   */
  async saved(): Promise<SavedSets> {
    const counts = await this.terse();
    const present = new Set(counts.keys());
    const inKernel = listCounts(counts);
    const known = this.known;
    const fresh =
      known !== null &&
      [...inKernel].every(([name, count]) => {
        const entries = known.get(name);
        return entries !== undefined && entries.ipv4.length + entries.ipv6.length === count;
      });
    if (!fresh) this.known = await this.readEntries();
    const metadata = await this.metadata();
    const lists = [...inKernel.keys()].sort().map((name) => ({
      ...describe(name, metadata),
      entries: this.known!.get(name) ?? { ipv4: [], ipv6: [] },
    }));
    return { lists, present };
  }

  /** Every list's entries, from one `ipset save`. */
  private async readEntries(): Promise<Map<string, Blocklist['entries']>> {
    const text = await this.ipset(['save'], { optional: true });
    const entries = new Map<string, Blocklist['entries']>();
    for (const line of text.split('\n')) {
      const first = line.indexOf(' ');
      const second = line.indexOf(' ', first + 1);
      if (first === -1) continue;
      const verb = line.slice(0, first);
      const ours = listOfSet(line.slice(first + 1, second === -1 ? undefined : second));
      if (ours === null) continue;
      if (verb === 'create' && !entries.has(ours.list)) entries.set(ours.list, { ipv4: [], ipv6: [] });
      else if (verb === 'add' && second !== -1)
        entries.get(ours.list)?.[ours.family].push(line.slice(second + 1).trim());
    }
    return entries;
  }

  private async metadata(): Promise<Metadata> {
    try {
      return JSON.parse(await readFile(this.metadataFile, 'utf8')) as Metadata;
    } catch {
      return {};
    }
  }

  private async restore(input: string | AsyncIterable<string>, timeoutMs: number): Promise<void> {
    const result = await this.run(['ipset', 'restore'], { input, timeoutMs }).catch((error: unknown) => {
      throw ipsetMissing(error);
    });
    if (result.code !== 0) {
      throw new AgentError('FW_APPLY_FAILED', 'ipset restore refused the blocklists', {
        stderr: clip(result.stderr),
      });
    }
  }

  /** ipset's output; `optional`: an absent ipset reads as no sets (a host that never used lists). */
  private async ipset(args: string[], { optional }: { optional: boolean }): Promise<string> {
    let result: Awaited<ReturnType<CommandRunner>>;
    try {
      result = await this.run(['ipset', ...args]);
    } catch (error) {
      if (optional && error instanceof CommandError && error.reason === 'not_found') return '';
      throw ipsetMissing(error);
    }
    if (result.code !== 0) {
      throw new AgentError('FW_COMMAND_FAILED', `ipset ${args[0]} failed`, { stderr: clip(result.stderr) });
    }
    return result.stdout;
  }
}

/**
 * The `ipset restore` input that builds each list whole in its staging set and swaps it with the
 * live one (renamed into place when new); `present` is every set name in the kernel now. The
 * agent streams the same text (`stage`).
 */
export function blocklistRestoreInput(lists: readonly Blocklist[], present: ReadonlySet<string>) {
  const input = [...stagingParts(lists, present), placementPart(lists, present)].join('');
  const entries = lists.reduce((sum, list) => sum + list.entries.ipv4.length + list.entries.ipv6.length, 0);
  return { input, entries };
}

/** The staging part, then the swap lines once `placed` says so (or the staging sets' destruction). */
async function* streamedRestoreInput(
  lists: readonly Blocklist[],
  setNames: ReadonlySet<string> | Promise<ReadonlySet<string>>,
  placed: Promise<boolean>,
): AsyncGenerator<string> {
  let present: ReadonlySet<string>;
  try {
    present = await setNames;
  } catch {
    return; // the read's failure is the caller's to report
  }
  yield* stagingParts(lists, present);
  yield (await placed) ? placementPart(lists, present) : droppingPart(lists);
}

/** Each list's sets built whole in their staging sets, a few thousand lines a part. */
function* stagingParts(lists: readonly Blocklist[], present: ReadonlySet<string>): Generator<string> {
  for (const list of lists) for (const family of families) yield* setStagingParts(list, family, present);
}

function* setStagingParts(list: Blocklist, family: Family, present: ReadonlySet<string>): Generator<string> {
  const staging = stagingSetName(list.name, family);
  const content = list.entries[family];
  // A staging set left by an interrupted write is dropped first.
  let part = present.has(staging) ? `destroy ${staging}\n` : '';
  part += `create ${staging} hash:net family ${ipsetFamily[family]} hashsize ${hashSize(content.length)} maxelem ${setMaxElements}\n`;
  for (let i = 0; i < content.length; i += 1) {
    part += `add ${staging} ${content[i]}\n`;
    if ((i + 1) % entriesPerPart === 0) {
      yield part;
      part = '';
    }
  }
  if (part !== '') yield part;
}

/** Each staging set put in place: swapped with the live set and the old content destroyed, or renamed when new. */
function placementPart(lists: readonly Blocklist[], present: ReadonlySet<string>): string {
  return lists.flatMap((list) => families.map((family) => setPlacement(list, family, present))).join('');
}

function setPlacement(list: Blocklist, family: Family, present: ReadonlySet<string>): string {
  const live = setName(list.name, family);
  const staging = stagingSetName(list.name, family);
  return present.has(live) ? `swap ${staging} ${live}\ndestroy ${staging}\n` : `rename ${staging} ${live}\n`;
}

function droppingPart(lists: readonly Blocklist[]): string {
  return lists
    .flatMap((list) => families.map((family) => `destroy ${stagingSetName(list.name, family)}\n`))
    .join('');
}

/** The whole restore input of one family's set of a list: built in its staging set, then put in place. */
export function setRestoreText(list: Blocklist, family: Family, present: ReadonlySet<string>): string {
  return [...setStagingParts(list, family, present), setPlacement(list, family, present)].join('');
}

/** Each list's number of entries over its two sets. */
function listCounts(setCounts: ReadonlyMap<string, number>): Map<string, number> {
  const lists = new Map<string, number>();
  for (const [set, count] of setCounts) {
    const ours = listOfSet(set);
    if (ours !== null) lists.set(ours.list, (lists.get(ours.list) ?? 0) + count);
  }
  return lists;
}

function describe(name: string, metadata: Metadata) {
  const known = Object.hasOwn(metadata, name) ? metadata[name] : undefined;
  return { name, family: known?.family ?? ('both' as const), comment: known?.comment ?? null };
}

/**
 * Buckets for `entries`: the power of two at or above their number (at least 1024). A bucket
 * holds at most 12 entries before the kernel doubles the table and rehashes every entry while
 * the set fills; with a quarter as many buckets as entries (3 a bucket) that happened in two
 * fills of three of 98,000 entries (`ipset list -t` showed the hashsize doubled).
 */
function hashSize(entries: number): number {
  let size = 1024;
  while (size < entries) size *= 2;
  return size;
}

function ipsetMissing(error: unknown): unknown {
  return error instanceof CommandError && error.reason === 'not_found'
    ? new AgentError('FW_BACKEND_NOT_FOUND', 'ipset is not installed: blocklists need it')
    : error;
}
