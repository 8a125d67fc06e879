/**
 * @module The agent's operations on the iptables backend, one at a time (a queue, so two clients
 * never interleave a snapshot and an apply). Apply = validate, automatic restore point, dry run,
 * one atomic restore per family, verify by reading back; any failure restores the point at once.
 * Safe apply (OPNsense's savepoint/rollback model) arms a timer in the agent itself: without a
 * confirm before the deadline the point is restored, even if the server or browser is gone.
 */
import { randomUUID } from 'node:crypto';
import type { Family } from '../engine/addresses.js';
import { analyzeRules } from '../engine/analyze.js';
import { mergeFamilies, readOwnedRules, tableSection } from '../engine/iptables-parse.js';
import { appliesToFamily, renderOwnedTable } from '../engine/iptables-render.js';
import { directions, type Rule } from '../engine/rule.js';
import { validateRules } from '../engine/validate.js';
import { AgentError } from './agent-error.js';
import { emptyFilterTable, families, type IptablesBackend } from './iptables-backend.js';
import type { PendingFile, PendingTransaction } from './pending-transaction.js';
import type { Snapshot, SnapshotKind, SnapshotStore } from './snapshot-store.js';

export interface AgentEvents {
  /** Called after an automatic rollback (deadline passed), with its outcome. */
  onRollback?: (event: { transaction_id: string; snapshot_id: string; ok: boolean; error?: string }) => void;
}

export class FirewallAgent {
  private queue: Promise<unknown> = Promise.resolve();
  private pending: PendingTransaction | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly backend: IptablesBackend,
    private readonly snapshots: SnapshotStore,
    private readonly pendingFile: PendingFile,
    private readonly events: AgentEvents = {},
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
      const saved = await this.saveAll();
      const chainsPresent = families.every((family) => saved[family].includes(':FIREWARDEN-INPUT '));
      return {
        backend: 'iptables',
        owned_chains_present: chainsPresent,
        pending_transaction: this.pending && {
          transaction_id: this.pending.transaction_id,
          deadline: new Date(this.pending.deadline).toISOString(),
        },
      };
    });
  }

  readRules() {
    return this.exclusive(async () => {
      const saved = await this.saveAll();
      const v4 = readOwnedRules(saved.ipv4, 'ipv4');
      const v6 = readOwnedRules(saved.ipv6, 'ipv6');
      return { rules: mergeFamilies(v4.rules, v6.rules), unparsed: [...v4.unparsed, ...v6.unparsed] };
    });
  }

  validate(input: unknown[]) {
    return this.exclusive(async () => {
      const rules = this.checked(input);
      await this.dryRun(rules, await this.saveAll());
      return { rules, conflicts: analyzeRules(rules) };
    });
  }

  apply(input: unknown[]) {
    return this.exclusive(async () => {
      const snapshot = await this.applyWithRestorePoint(this.checked(input));
      return { snapshot_id: snapshot.id };
    });
  }

  snapshot(kind: SnapshotKind, note: string | null) {
    return this.exclusive(async () => {
      const { iptables: _state, ...summary } = await this.snapshots.create(kind, await this.saveAll(), note);
      return summary;
    });
  }

  listSnapshots() {
    return this.exclusive(async () => ({ snapshots: await this.snapshots.list() }));
  }

  restore(snapshotId: string) {
    return this.exclusive(async () => {
      const snapshot = await this.snapshots.get(snapshotId);
      // A manual restore supersedes a pending transaction: nothing left to roll back.
      await this.settlePending();
      const before = await this.snapshots.create(
        'automatic',
        await this.saveAll(),
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
      const snapshot = await this.applyWithRestorePoint(this.checked(input));
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
    const result = validateRules(input, { backend: 'iptables' });
    if (!result.ok)
      throw new AgentError('FW_VALIDATION_FAILED', 'the rules are invalid', { errors: result.errors });
    return result.rules;
  }

  private async saveAll(): Promise<Record<Family, string>> {
    const [ipv4, ipv6] = await Promise.all(families.map((family) => this.backend.save(family)));
    return { ipv4: ipv4!, ipv6: ipv6! };
  }

  private async dryRun(rules: Rule[], saved: Record<Family, string>): Promise<Record<Family, string>> {
    const inputs = { ipv4: '', ipv6: '' };
    for (const family of families) {
      inputs[family] = renderOwnedTable(rules, family, saved[family]);
      const test = await this.backend.test(family, inputs[family], true);
      if (!test.ok) {
        throw new AgentError('FW_VALIDATION_FAILED', `iptables-restore --test refused the ${family} rules`, {
          errors: [{ path: 'rules', code: 'backend_refused', message: test.message }],
        });
      }
    }
    return inputs;
  }

  private async applyWithRestorePoint(rules: Rule[]): Promise<Snapshot> {
    const saved = await this.saveAll();
    const inputs = await this.dryRun(rules, saved);
    const snapshot = await this.snapshots.create('automatic', saved, 'before apply');
    try {
      for (const family of families) await this.backend.restore(family, inputs[family], true);
      await this.verify(rules);
    } catch (error) {
      await this.restoreState(snapshot);
      throw error instanceof AgentError ? error : new AgentError('FW_APPLY_FAILED', (error as Error).message);
    }
    return snapshot;
  }

  /** Reads the rules back: what the kernel holds must be what we meant, in order. */
  private async verify(rules: Rule[]): Promise<void> {
    const saved = await this.saveAll();
    for (const family of families) {
      const expected = directions.flatMap((direction) =>
        rules
          .filter((r) => r.direction === direction && appliesToFamily(r, family))
          .map((r) => ({ ...r, family })),
      );
      const actual = readOwnedRules(saved[family], family).rules.map((r) => ({ ...r, family }));
      if (JSON.stringify(actual) !== JSON.stringify(expected)) {
        throw new AgentError(
          'FW_APPLY_FAILED',
          `the ${family} rules read back differ from the rules applied`,
        );
      }
    }
  }

  private async restoreState(snapshot: Snapshot): Promise<void> {
    try {
      for (const family of families) {
        const filter = tableSection(snapshot.iptables[family], 'filter') ?? emptyFilterTable;
        await this.backend.restore(family, filter, false);
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
