/**
 * @module The agent's operations on the chosen backend (iptables or ufw), one at a time (a queue,
 * so two clients never interleave a snapshot and an apply). Apply = validate, automatic restore
 * point, dry run, write, verify by reading back; any failure restores the point at once. Writes
 * are refused with `FW_BACKEND_CONFLICT` while a competing manager owns the firewall, unless the
 * operator opted in, and with `FW_UNMANAGED_RULES` while our chains hold lines the model cannot
 * express that the request does not name (the write would drop them). Safe apply (OPNsense's
 * savepoint/rollback model) arms a timer in the agent itself: without a confirm before the
 * deadline the point is restored, even if the server or browser is gone; that rollback is never
 * blocked by a conflict. Its intent is on disk before the kernel is touched (an agent killed at
 * any step rolls back at its next start), other applies are refused while it waits
 * (`FW_TRANSACTION_PENDING`: the deadline would silently undo them), its restore point is never
 * pruned, and a rollback that fails is retried until it succeeds or an operator restores a point.
 * Each operation that creates a restore point may name the retention to prune to (the server's
 * run-time settings); without it the agent's own (its config file's) applies.
 */
import { randomUUID } from 'node:crypto';
import { type BlocklistChangeInput, defaultRetention, type Retention } from '../agent-protocol/protocol.js';
import { type Family, parseNetwork } from '../engine/addresses.js';
import { analyzeRules } from '../engine/analyze.js';
import type { Blocklist } from '../engine/blocklist.js';
import { exposureClassifier } from '../engine/exposure.js';
import type { Rule } from '../engine/rule.js';
import { ownInputChain } from '../engine/ruleset-verdict.js';
import { validateRules } from '../engine/validate.js';
import { AgentError } from './agent-error.js';
import { type BlocklistChange, checkedBlocklistChange, listsAfter } from './blocklist-change.js';
import type { BlocklistSets, SavedSets, StagedLists } from './blocklist-sets.js';
import { crashPoint } from './crash-point.js';
import type { BackendState, FirewallBackend } from './firewall-backend.js';
import type { ForeignRuleset } from './foreign-rules.js';
import { readListeningSockets } from './listening-sockets.js';
import { conflictsOf, type FirewallManager } from './manager-conflicts.js';
import type { PendingFile, PendingTransaction } from './pending-transaction.js';
import type { Snapshot, SnapshotKind, SnapshotStore } from './snapshot-store.js';

export interface RollbackEvent {
  transaction_id: string;
  snapshot_id: string;
  ok: boolean;
  /** A failure: what went wrong, how many attempts failed, and when the next one runs. */
  error?: string;
  attempts?: number;
  next_attempt_at?: string;
}

export interface AgentEvents {
  /** Called after each automatic rollback attempt (deadline passed, or an intent found at start). */
  onRollback?: (event: RollbackEvent) => void;
}

/** A failed rollback is retried after 1, 2, 4 s, then every 5 s until it succeeds. */
function rollbackRetryDelay(attempts: number): number {
  return Math.min(5_000, 1_000 * 2 ** (attempts - 1));
}

interface RollbackFailure {
  attempts: number;
  last_error: string;
  next_attempt_at: string;
}

/**
 * Who else manages the firewall (competing or cooperating), whether the operator allowed writing
 * anyway, and the rules they hold.
 */
export interface ConflictGuard {
  detect(saved: Record<Family, string>): Promise<FirewallManager[]>;
  foreign(saved: Record<Family, string>): Promise<ForeignRuleset>;
  allowWrite: boolean;
}

/** A transaction as the socket sends it: the new rule list (absent: unchanged) and blocklist changes. */
interface ChangeInput {
  rules?: unknown[];
  blocklists?: BlocklistChangeInput;
}

interface Change {
  rules: Rule[] | null;
  blocklists: BlocklistChange;
}

/** Whether the kernel's list holds exactly the point's entries (compared as sets). */
function sameEntries(list: Blocklist, now: Blocklist | undefined): boolean {
  if (now === undefined) return false;
  return (['ipv4', 'ipv6'] as const).every((family) => {
    const held = new Set(now.entries[family]);
    return (
      held.size === list.entries[family].length && list.entries[family].every((entry) => held.has(entry))
    );
  });
}

/** The answer's word on hand edits saved aside before a write replaced them (none: absent). */
function handEditsSaved(files: readonly string[]) {
  return files.length === 0 ? {} : { hand_edits_saved: files };
}

/**
 * A point as lists show it, without its saved state. An apply's answer carries its point: the
 * server records it even when a retention of 1 pruned it before the server listed the points.
 */
function summaryOf({ iptables: _iptables, ufw_files: _files, blocklists: _lists, ...summary }: Snapshot) {
  return summary;
}

const noConflicts: ConflictGuard = {
  detect: async () => [],
  foreign: async () => ({ foreign: [], policies: [], own_jumps: [] }),
  allowWrite: false,
};

export class FirewallAgent {
  private queue: Promise<unknown> = Promise.resolve();
  private pending: PendingTransaction | null = null;
  private rollbackFailure: RollbackFailure | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly backend: FirewallBackend,
    private readonly sets: BlocklistSets,
    private readonly snapshots: SnapshotStore,
    private readonly pendingFile: PendingFile,
    private readonly events: AgentEvents = {},
    private readonly guard: ConflictGuard = noConflicts,
    private readonly retention: Retention = defaultRetention,
  ) {}

  /**
   * Deals with a transaction left by a previous run before the agent serves: an intent, or an
   * armed one whose deadline passed, is rolled back now; an armed one in its window is re-armed.
   */
  async resume(): Promise<void> {
    const pending = await this.pendingFile.read();
    if (pending === null) return;
    this.pending = pending;
    if (pending.phase === 'intent' || pending.deadline <= Date.now())
      await this.rollBack(pending.transaction_id);
    else this.arm(pending);
  }

  /** Stops the timer without rolling back; the pending file keeps the promise for the next start. */
  stop(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  status() {
    return this.exclusive(async () => {
      const saved = await this.backend.saveAll();
      const managers = await this.guard.detect(saved);
      const conflicts = conflictsOf(managers);
      return {
        backend: this.backend.kind,
        ...(await this.backend.describe(saved)),
        managers,
        conflicts,
        read_only: conflicts.length > 0 && !this.guard.allowWrite,
        allow_write_on_manager_conflict: this.guard.allowWrite,
        pending_transaction: this.pending && {
          transaction_id: this.pending.transaction_id,
          deadline: new Date(this.pending.deadline).toISOString(),
          /** Non-null while the rollback fails and is being retried. */
          rollback_failure: this.rollbackFailure,
        },
      };
    });
  }

  /**
   * Our rules, and read-only the foreign rules and the built-in chains' policies in force; with
   * the backend, which decides what a rule may say (a transaction needs no `status` besides).
   */
  readRules(address?: string) {
    return this.exclusive(async () => {
      const saved = await this.backend.saveAll();
      const blocklists = await this.sets.summaries();
      const network = address === undefined ? null : parseNetwork(address);
      return {
        backend: this.backend.kind,
        ...(await this.backend.readRules(saved)),
        ...(await this.guard.foreign(saved)),
        blocklists,
        ...(network === null
          ? {}
          : {
              address_in_blocklists: await this.sets.holding(
                address!,
                network.family,
                blocklists.map((list) => list.name),
              ),
            }),
      };
    });
  }

  /** One list with its entries (sorted), or every list with its number of entries. */
  blocklists(name?: string) {
    return this.exclusive(async () => {
      if (name === undefined) return { blocklists: await this.sets.summaries() };
      const list = (await this.sets.read()).find((l) => l.name === name);
      if (list === undefined)
        throw new AgentError('FW_BLOCKLIST_NOT_FOUND', `no blocklist named ${name.slice(0, 64)}`);
      return { blocklist: list };
    });
  }

  /** Every listening socket of this namespace and whether the ruleset lets the outside reach it. */
  exposure() {
    // Read outside the queue: the walk of every process's fds must not hold up a write or a rollback.
    const listening = readListeningSockets();
    return this.exclusive(async () => {
      const saved = await this.backend.saveAll();
      const view = await this.guard.foreign(saved);
      const ours = {
        chain: ownInputChain(this.backend.kind),
        rules: (await this.backend.readRules(saved)).rules,
      };
      const classify = exposureClassifier(view, ours);
      const sockets = await listening;
      return {
        sockets: sockets.map(({ family, ...socket }) => ({ ...socket, ...classify({ ...socket, family }) })),
      };
    });
  }

  validate(input: unknown[]) {
    return this.exclusive(async () => {
      const rules = this.checked(input);
      await this.backend.prepare(rules, await this.backend.capture());
      return { rules, conflicts: analyzeRules(rules) };
    });
  }

  apply(input: ChangeInput, acknowledgedUnmanaged: string[] = [], retention = this.retention) {
    return this.exclusive(async () => {
      const sets = this.listSetsEarly();
      const change = this.checkedChange(input);
      this.refuseWhilePending();
      const { snapshot, handEdits } = await this.withStagedLists(
        change.blocklists.set,
        sets,
        ({ state, present }, staged) =>
          this.applyWithRestorePoint(change, staged, state, present, acknowledgedUnmanaged, retention),
      );
      return { snapshot_id: snapshot.id, snapshot: summaryOf(snapshot), ...handEditsSaved(handEdits) };
    });
  }

  snapshot(kind: SnapshotKind, note: string | null, retention = this.retention) {
    return this.exclusive(async () =>
      summaryOf(
        await this.snapshots.create(kind, (await this.capture()).state, note, this.kept(), retention),
      ),
    );
  }

  listSnapshots() {
    return this.exclusive(async () => ({ snapshots: await this.snapshots.list() }));
  }

  /** A restore point's rules (as `readRules` gives the live ones) and its lists with their counts. */
  readSnapshot(snapshotId: string) {
    return this.exclusive(async () => {
      const point = await this.snapshots.get(snapshotId);
      const { iptables: _iptables, ufw_files: _files, blocklists, ...summary } = point;
      const { rules, unparsed } = await this.backend.rulesIn(point);
      return {
        snapshot: summary,
        backend: this.backend.kind,
        rules,
        unparsed,
        // A point from before blocklists has none to show (and restoring it leaves the lists alone).
        blocklists:
          blocklists?.map(({ entries, ...list }) => ({
            ...list,
            entries: entries.ipv4.length + entries.ipv6.length,
          })) ?? null,
      };
    });
  }

  restore(snapshotId: string, retention = this.retention) {
    return this.exclusive(async () => {
      const snapshot = await this.snapshots.get(snapshotId);
      const { state } = await this.captureForWrite();
      const before = await this.snapshots.create(
        'automatic',
        state,
        `before restoring ${snapshot.id}`,
        this.kept(),
        retention,
      );
      await this.restoreState(snapshot);
      // A manual restore supersedes a pending transaction (and ends a failing rollback's retries).
      // Settled only once the restore is in the kernel: a crash before still rolls back.
      await this.settlePending();
      return { restored: snapshot.id, hash: snapshot.hash, previous_snapshot_id: before.id };
    });
  }

  beginSafeApply(
    input: ChangeInput,
    timeoutSeconds: number,
    acknowledgedUnmanaged: string[] = [],
    retention = this.retention,
  ) {
    return this.exclusive(async () => {
      const sets = this.listSetsEarly();
      const change = this.checkedChange(input);
      this.refuseWhilePending();
      const transactionId = randomUUID();
      const deadline = Date.now() + timeoutSeconds * 1_000;
      let snapshot: Snapshot;
      let handEdits: string[];
      try {
        ({ snapshot, handEdits } = await this.withStagedLists(
          change.blocklists.set,
          sets,
          ({ state, present }, staged) =>
            this.applyWithRestorePoint(
              change,
              staged,
              state,
              present,
              acknowledgedUnmanaged,
              retention,
              async (point) => {
                const intent: PendingTransaction = {
                  transaction_id: transactionId,
                  snapshot_id: point.id,
                  deadline,
                  phase: 'intent',
                };
                await this.pendingFile.write(intent);
                this.pending = intent;
                crashPoint('after-intent-write');
              },
            ),
        ));
      } catch (error) {
        if (this.pending?.transaction_id !== transactionId) throw error;
        // The write failed: restored at once (the intent goes), or not (the rollback takes over).
        if (error instanceof AgentError && error.code === 'FW_ROLLBACK_FAILED') {
          void this.rollBack(transactionId);
        } else {
          await this.settlePending();
        }
        throw error;
      }
      const armed: PendingTransaction = {
        transaction_id: transactionId,
        snapshot_id: snapshot.id,
        deadline,
        phase: 'armed',
      };
      try {
        await this.pendingFile.write(armed);
      } catch (error) {
        // The caller gets no id, so nobody can confirm: the intent on disk is rolled back now.
        void this.rollBack(transactionId);
        throw new AgentError('FW_APPLY_FAILED', `could not arm the transaction: ${(error as Error).message}`);
      }
      crashPoint('after-arm');
      this.arm(armed);
      return {
        transaction_id: transactionId,
        snapshot_id: snapshot.id,
        snapshot: summaryOf(snapshot),
        deadline: new Date(deadline).toISOString(),
        ...handEditsSaved(handEdits),
      };
    });
  }

  confirm(transactionId: string) {
    return this.exclusive(async () => {
      if (this.pending?.transaction_id !== transactionId) {
        throw new AgentError('FW_TRANSACTION_NOT_FOUND', 'no transaction with this id waits for a confirm');
      }
      if (this.pending.deadline <= Date.now()) {
        throw new AgentError(
          'FW_TRANSACTION_NOT_FOUND',
          'the deadline of this transaction passed: it is being rolled back',
        );
      }
      await this.settlePending();
      return { confirmed: transactionId };
    });
  }

  private arm(pending: PendingTransaction, delay = Math.max(0, pending.deadline - Date.now())): void {
    this.stop();
    this.pending = pending;
    this.timer = setTimeout(() => void this.rollBack(pending.transaction_id), delay);
  }

  /** Restores the pending point; on failure, says so loudly and tries again (see rollbackRetryDelay). */
  private rollBack(transactionId: string) {
    return this.exclusive(async () => {
      const pending = this.pending;
      if (pending?.transaction_id !== transactionId) return;
      try {
        await this.restoreState(await this.snapshots.get(pending.snapshot_id));
        crashPoint('after-rollback-write');
        await this.settlePending();
        this.events.onRollback?.({
          transaction_id: transactionId,
          snapshot_id: pending.snapshot_id,
          ok: true,
        });
      } catch (error) {
        // The pending file stays (a restart tries again too); reads and status keep working.
        const attempts = (this.rollbackFailure?.attempts ?? 0) + 1;
        const delay = rollbackRetryDelay(attempts);
        this.rollbackFailure = {
          attempts,
          last_error: (error as Error).message,
          next_attempt_at: new Date(Date.now() + delay).toISOString(),
        };
        this.arm(pending, delay);
        this.events.onRollback?.({
          transaction_id: transactionId,
          snapshot_id: pending.snapshot_id,
          ok: false,
          error: this.rollbackFailure.last_error,
          attempts,
          next_attempt_at: this.rollbackFailure.next_attempt_at,
        });
      }
    }).catch(() => undefined);
  }

  private async settlePending(): Promise<void> {
    this.stop();
    this.pending = null;
    this.rollbackFailure = null;
    await this.pendingFile.clear();
  }

  /** The restore point a pending transaction rolls back to: pruning must never remove it. */
  private kept(): ReadonlySet<string> {
    return new Set(this.pending ? [this.pending.snapshot_id] : []);
  }

  /** At its deadline the rollback would silently undo any other apply made in the window. */
  private refuseWhilePending(): void {
    if (this.pending === null) return;
    throw new AgentError(
      'FW_TRANSACTION_PENDING',
      `safe apply ${this.pending.transaction_id} waits for its confirm: confirm it, or let it roll back, before another apply`,
      {
        transaction_id: this.pending.transaction_id,
        deadline: new Date(this.pending.deadline).toISOString(),
      },
    );
  }

  /** The rules (null: unchanged) and the blocklists of a transaction, each checked. */
  private checkedChange(input: ChangeInput): Change {
    return {
      rules: input.rules === undefined ? null : this.checked(input.rules),
      blocklists: checkedBlocklistChange(input.blocklists),
    };
  }

  /** The backend's state and every blocklist, and the kernel's set names. */
  private async capture(): Promise<{ state: BackendState; present: Set<string> }> {
    return this.captured(this.backend.capture());
  }

  /** `capture`, refusing on a manager conflict; the conflict check runs while the lists are read. */
  private captureForWrite(sets = this.sets.saved()): Promise<{ state: BackendState; present: Set<string> }> {
    const state = this.backend.capture().then(async (captured) => {
      await this.refuseOnConflict(captured);
      return captured;
    });
    return this.captured(state, sets);
  }

  private async captured(backendState: Promise<BackendState>, sets = this.sets.saved()) {
    const [state, saved] = await Promise.all([backendState, sets]);
    return { state: { ...state, blocklists: saved.lists }, present: saved.present };
  }

  /**
   * The kernel's sets, read (`ipset list -t`, a process) while a large change is checked; a
   * refused change leaves the read unused.
   */
  private listSetsEarly(): Promise<SavedSets> {
    const sets = this.sets.saved();
    sets.catch(() => undefined); // awaited by withStagedLists
    return sets;
  }

  /**
   * `captureForWrite` while `lists` are built in their staging sets (from the moment the kernel's
   * set names are known), so ipset fills them during the conflict check and the restore point;
   * `write` commits them. Whatever it does not commit, failing or refusing, is dropped.
   */
  private async withStagedLists<T>(
    lists: readonly Blocklist[],
    sets: Promise<SavedSets>,
    write: (captured: { state: BackendState; present: Set<string> }, staged: StagedLists) => Promise<T>,
  ): Promise<T> {
    const present = sets.then((saved) => saved.present);
    present.catch(() => undefined); // a failed read is thrown by `captured`
    // Spawned before the capture's commands: ipset is the longest part of the write.
    const staged = this.sets.stage(lists, present);
    try {
      const captured = await this.captureForWrite(sets);
      return await write(captured, staged);
    } finally {
      await staged.abandon();
    }
  }

  /**
   * The privileged side's own check: the server validated these rules already, but whoever is in
   * the socket's group may send anything, and only rules validated here reach the kernel.
   */
  private checked(input: unknown[]): Rule[] {
    const result = validateRules(input, { backend: this.backend.kind });
    if (!result.ok)
      throw new AgentError('FW_VALIDATION_FAILED', 'the rules are invalid', { errors: result.errors });
    return result.rules;
  }

  /**
   * A competing manager rewrites our rules: writing would fight it, unless the operator opted in.
   * `state` is the one just captured for the restore point (no second `iptables-save`).
   */
  private async refuseOnConflict(state: BackendState): Promise<void> {
    if (this.guard.allowWrite) return;
    const conflicts = conflictsOf(await this.guard.detect(state.iptables));
    if (conflicts.length === 0) return;
    throw new AgentError(
      'FW_BACKEND_CONFLICT',
      `a competing firewall manager is active (${conflicts.map((c) => c.manager).join(', ')}): the ${this.backend.kind} backend is read-only unless firewall.allow_write_on_manager_conflict is true`,
      { conflicts },
    );
  }

  /**
   * `state` was just captured and `blocklists.set` staged; `beforeWrite` runs once the restore
   * point is on disk, before anything a packet meets is touched.
   */
  private async applyWithRestorePoint(
    { rules, blocklists }: Change,
    staged: StagedLists,
    state: BackendState,
    present: ReadonlySet<string>,
    acknowledgedUnmanaged: string[],
    retention: Retention,
    beforeWrite?: (snapshot: Snapshot) => Promise<void>,
  ): Promise<{ snapshot: Snapshot; handEdits: string[] }> {
    if (rules !== null) this.refuseUnacknowledged(state, acknowledgedUnmanaged);
    const current = state.blocklists ?? [];
    const ruling = rules ?? (await this.backend.readRules(state.iptables)).rules;
    const after = listsAfter(current, blocklists, ruling);
    const write = rules === null ? null : await this.backend.prepare(rules, state);
    const snapshot = await this.snapshots.create('automatic', state, 'before apply', this.kept(), retention);
    await beforeWrite?.(snapshot);
    let handEdits: string[] = [];
    try {
      // Sets first (rules may name them), the rules, then the sets no rule names any more.
      await staged.commit();
      handEdits = (await write?.()) ?? [];
      await this.sets.destroy(blocklists.remove, present);
      // The counts are read back from the kernel while the metadata file is written.
      const counted = this.sets.verify(blocklists.set);
      counted.catch(() => undefined); // awaited below
      if (blocklists.set.length + blocklists.remove.length > 0) {
        await this.sets.recordMetadata(
          [...after.keys()].map(
            (name) => blocklists.set.find((l) => l.name === name) ?? current.find((l) => l.name === name)!,
          ),
        );
      }
      crashPoint('after-kernel-write');
      if (rules !== null) await this.backend.verify(rules);
      await counted;
    } catch (error) {
      await this.restoreState(snapshot);
      throw error instanceof AgentError ? error : new AgentError('FW_APPLY_FAILED', (error as Error).message);
    }
    return { snapshot, handEdits };
  }

  /** A write replaces our chains whole: lines the model cannot express would be lost unless named. */
  private refuseUnacknowledged(state: BackendState, acknowledged: string[]): void {
    const lines = this.backend.unmanagedLines(state).filter((line) => !acknowledged.includes(line));
    if (lines.length === 0) return;
    throw new AgentError(
      'FW_UNMANAGED_RULES',
      `firewarden's chains hold ${lines.length} line(s) the rule model cannot express, which this change would drop (${lines.slice(0, 3).join('; ')}${lines.length > 3 ? '; ...' : ''}): name each in acknowledge_unmanaged to apply anyway`,
      { lines },
    );
  }

  /**
   * Puts a point back: its lists whose content differs are swapped in first (the point's rules
   * may name them), then the backend's state, then the lists the point did not have are
   * destroyed. A point from before blocklists existed leaves the lists as they are.
   */
  private async restoreState(snapshot: Snapshot): Promise<void> {
    try {
      const lists = snapshot.blocklists;
      const now = lists === undefined ? null : await this.sets.saved();
      if (lists !== undefined && now !== null) {
        await this.sets.write(
          lists.filter(
            (list) =>
              !sameEntries(
                list,
                now.lists.find((l) => l.name === list.name),
              ),
          ),
          now.present,
        );
      }
      await this.backend.restore(snapshot);
      if (lists !== undefined && now !== null) {
        const kept = new Set(lists.map((list) => list.name));
        await this.sets.destroy(
          now.lists.filter((list) => !kept.has(list.name)).map((list) => list.name),
          now.present,
        );
        await this.sets.recordMetadata(lists);
      }
    } catch (error) {
      throw new AgentError(
        'FW_ROLLBACK_FAILED',
        `restoring ${snapshot.id} failed: ${(error as Error).message}`,
      );
    }
  }

  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }
}
