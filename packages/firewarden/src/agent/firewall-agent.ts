/**
 * @module The agent's operations on the chosen backend (iptables or ufw), one at a time (a queue,
 * so two clients never interleave a snapshot and an apply). Apply = validate, automatic restore
 * point, dry run, write, verify by reading back; any failure restores the point at once. Writes
 * are refused with `FW_BACKEND_CONFLICT` while another manager owns the firewall, unless the
 * operator opted in. Safe apply (OPNsense's savepoint/rollback model) arms a timer in the agent
 * itself: without a confirm before the deadline the point is restored, even if the server or
 * browser is gone; that rollback is never blocked by a conflict.
 */
import { randomUUID } from 'node:crypto';
import type { Family } from '../engine/addresses.js';
import { analyzeRules } from '../engine/analyze.js';
import type { Rule } from '../engine/rule.js';
import { validateRules } from '../engine/validate.js';
import type { ManagerConflict } from '../firewall/manager-conflicts.js';
import { AgentError } from './agent-error.js';
import type { FirewallBackend } from './firewall-backend.js';
import type { PendingFile, PendingTransaction } from './pending-transaction.js';
import type { Snapshot, SnapshotKind, SnapshotStore } from './snapshot-store.js';

export interface AgentEvents {
  /** Called after an automatic rollback (deadline passed), with its outcome. */
  onRollback?: (event: { transaction_id: string; snapshot_id: string; ok: boolean; error?: string }) => void;
}

/** Who else manages the firewall, and whether the operator allowed writing anyway. */
export interface ConflictGuard {
  detect(saved: Record<Family, string>): Promise<ManagerConflict[]>;
  allowWrite: boolean;
}

const noConflicts: ConflictGuard = { detect: async () => [], allowWrite: false };

export class FirewallAgent {
  private queue: Promise<unknown> = Promise.resolve();
  private pending: PendingTransaction | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly backend: FirewallBackend,
    private readonly snapshots: SnapshotStore,
    private readonly pendingFile: PendingFile,
    private readonly events: AgentEvents = {},
    private readonly guard: ConflictGuard = noConflicts,
  ) {}

  /** Re-arms (or runs at once) the rollback of a transaction left pending by a previous run. */
  async resume(): Promise<void> {
    const pending = await this.pendingFile.read();
    if (pending !== null) this.arm(pending);
  }

  /** Stops the timer without rolling back; the pending file keeps the promise for the next start. */
  stop(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  status() {
    return this.exclusive(async () => {
      const saved = await this.backend.saveAll();
      const conflicts = await this.guard.detect(saved);
      return {
        backend: this.backend.kind,
        ...(await this.backend.describe(saved)),
        conflicts,
        read_only: conflicts.length > 0 && !this.guard.allowWrite,
        allow_write_on_manager_conflict: this.guard.allowWrite,
        pending_transaction: this.pending && {
          transaction_id: this.pending.transaction_id,
          deadline: new Date(this.pending.deadline).toISOString(),
        },
      };
    });
  }

  readRules() {
    return this.exclusive(() => this.backend.readRules());
  }

  validate(input: unknown[]) {
    return this.exclusive(async () => {
      const rules = this.checked(input);
      await this.backend.prepare(rules, await this.backend.capture());
      return { rules, conflicts: analyzeRules(rules) };
    });
  }

  apply(input: unknown[]) {
    return this.exclusive(async () => {
      const rules = this.checked(input);
      await this.refuseOnConflict();
      const snapshot = await this.applyWithRestorePoint(rules);
      return { snapshot_id: snapshot.id };
    });
  }

  snapshot(kind: SnapshotKind, note: string | null) {
    return this.exclusive(async () => {
      const {
        iptables: _iptables,
        ufw_files: _files,
        ...summary
      } = await this.snapshots.create(kind, await this.backend.capture(), note);
      return summary;
    });
  }

  listSnapshots() {
    return this.exclusive(async () => ({ snapshots: await this.snapshots.list() }));
  }

  restore(snapshotId: string) {
    return this.exclusive(async () => {
      const snapshot = await this.snapshots.get(snapshotId);
      await this.refuseOnConflict();
      // A manual restore supersedes a pending transaction: nothing left to roll back.
      await this.settlePending();
      const before = await this.snapshots.create(
        'automatic',
        await this.backend.capture(),
        `before restoring ${snapshot.id}`,
      );
      await this.restoreState(snapshot);
      return { restored: snapshot.id, hash: snapshot.hash, previous_snapshot_id: before.id };
    });
  }

  beginSafeApply(input: unknown[], timeoutSeconds: number) {
    return this.exclusive(async () => {
      if (this.pending !== null) {
        throw new AgentError('AGENT_BUSY', 'another safe apply waits for its confirm', {
          transaction_id: this.pending.transaction_id,
        });
      }
      const rules = this.checked(input);
      await this.refuseOnConflict();
      const snapshot = await this.applyWithRestorePoint(rules);
      const pending = {
        transaction_id: randomUUID(),
        snapshot_id: snapshot.id,
        deadline: Date.now() + timeoutSeconds * 1_000,
      };
      await this.pendingFile.write(pending);
      this.arm(pending);
      return { ...pending, deadline: new Date(pending.deadline).toISOString() };
    });
  }

  confirm(transactionId: string) {
    return this.exclusive(async () => {
      if (this.pending?.transaction_id !== transactionId) {
        throw new AgentError('FW_TRANSACTION_NOT_FOUND', 'no transaction with this id waits for a confirm');
      }
      await this.settlePending();
      return { confirmed: transactionId };
    });
  }

  private arm(pending: PendingTransaction): void {
    this.stop();
    this.pending = pending;
    const delay = Math.max(0, pending.deadline - Date.now());
    this.timer = setTimeout(() => void this.rollBack(pending.transaction_id), delay);
  }

  private rollBack(transactionId: string) {
    return this.exclusive(async () => {
      const pending = this.pending;
      if (pending?.transaction_id !== transactionId) return;
      try {
        await this.restoreState(await this.snapshots.get(pending.snapshot_id));
        await this.settlePending();
        this.events.onRollback?.({
          transaction_id: transactionId,
          snapshot_id: pending.snapshot_id,
          ok: true,
        });
      } catch (error) {
        // The pending file stays: the next start tries again.
        this.events.onRollback?.({
          transaction_id: transactionId,
          snapshot_id: pending.snapshot_id,
          ok: false,
          error: (error as Error).message,
        });
      }
    }).catch(() => undefined);
  }

  private async settlePending(): Promise<void> {
    this.stop();
    this.pending = null;
    await this.pendingFile.clear();
  }

  private checked(input: unknown[]): Rule[] {
    const result = validateRules(input, { backend: this.backend.kind });
    if (!result.ok)
      throw new AgentError('FW_VALIDATION_FAILED', 'the rules are invalid', { errors: result.errors });
    return result.rules;
  }

  /** Another manager owns the firewall: writing would fight it, unless the operator opted in. */
  private async refuseOnConflict(): Promise<void> {
    if (this.guard.allowWrite) return;
    const conflicts = await this.guard.detect(await this.backend.saveAll());
    if (conflicts.length === 0) return;
    throw new AgentError(
      'FW_BACKEND_CONFLICT',
      `another firewall manager is active (${conflicts.map((c) => c.manager).join(', ')}): the ${this.backend.kind} backend is read-only unless firewall.allow_write_on_manager_conflict is true`,
      { conflicts },
    );
  }

  private async applyWithRestorePoint(rules: Rule[]): Promise<Snapshot> {
    const state = await this.backend.capture();
    const write = await this.backend.prepare(rules, state);
    const snapshot = await this.snapshots.create('automatic', state, 'before apply');
    try {
      await write();
      await this.backend.verify(rules);
    } catch (error) {
      await this.restoreState(snapshot);
      throw error instanceof AgentError ? error : new AgentError('FW_APPLY_FAILED', (error as Error).message);
    }
    return snapshot;
  }

  private async restoreState(snapshot: Snapshot): Promise<void> {
    try {
      await this.backend.restore(snapshot);
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
