/**
 * @module The server's side of changing the firewall: a transaction is validated as a whole
 * against the rules the kernel holds now, checked for lockout of this session (SSH and the
 * management port), and sent to the agent, which takes the restore point, applies atomically,
 * reads back and (safe apply) rolls back by itself at the deadline. The server records every step
 * (transactions table, audit, notification) and learns of the agent's own rollbacks, and of a
 * rollback that keeps failing (critical notification), when it next asks (`reconcile`, also run
 * at start). Every agent operation that creates a restore point names the run-time retention
 * (`restore_points.retain_*`), and each listing marks the points the agent pruned.
 */
import { randomUUID } from 'node:crypto';
import type { AuditEntryInput } from '@suite/web-auth';
import type { Logger } from 'pino';
import type { Retention } from '../agent-protocol/protocol.js';
import { applyActions } from '../engine/transaction-actions.js';
import type { Backend } from '../engine/validate.js';
import { ApiError } from '../http/api-error.js';
import type { NewNotification, NotificationStore } from '../notifications/notification-store.js';
import { type AskAgent, withAgent } from './agent-call.js';
import { type ForeignView, refuseForeignTargets } from './foreign-targets.js';
import {
  agentBlocklistChange,
  type BlocklistRequest,
  type CurrentRuleset,
  sessionLockoutRisks,
} from './session-lockout.js';
import type { RestorePointSummary, TransactionStore, TransactionView } from './transaction-store.js';

/** What the agent reports as the actor of a rollback it did alone. */
const agentActor = 'firewarden-agent';

/** Who asks, for the audit trail and the lockout check. */
export interface Requester {
  actor: string;
  requestId: string;
  client: string;
}

interface TransactionRequest {
  /** Rule actions; none with a blocklist change leaves the rules as they are. */
  actions: unknown[];
  /** A list's change, or its merge still running: the rules are read from the agent meanwhile. */
  blocklist?: BlocklistRequest | Promise<BlocklistRequest>;
  safeApply: boolean;
  acknowledgeLockout: boolean;
  /** Lines of our chains the model cannot express that the change may drop, verbatim. */
  acknowledgeUnmanaged: string[];
  managementPort: number;
}

interface FirewallChangesOptions {
  socketPath: string;
  store: TransactionStore;
  notifications: NotificationStore;
  audit: (entry: AuditEntryInput) => Promise<unknown>;
  safeApplyTimeoutSeconds: () => number;
  /** The run-time settings' `restore_points.retain_*`, read at each operation. */
  retention: () => Retention;
  logger: Logger;
}

/** The agent's pending safe apply; `rollback_failure` while its rollback fails and is retried. */
interface HeldTransaction {
  transaction_id: string;
  rollback_failure: { attempts: number; last_error: string; next_attempt_at: string } | null;
}

interface SafeApplyAnswer {
  transaction_id: string;
  snapshot_id: string;
  /** The restore point taken before the write. */
  snapshot: RestorePointSummary;
  deadline: string;
  /** Copies of files whose marked block had been edited by hand, made before the write replaced it. */
  hand_edits_saved?: string[];
}

export function createFirewallChanges(options: FirewallChangesOptions) {
  const { socketPath, store } = options;

  const record = async (
    who: Requester | null,
    action: string,
    target: string,
    outcome: string,
    detail: Record<string, unknown>,
    notification?: NewNotification,
  ) => {
    await options.audit({
      actor: who?.actor ?? agentActor,
      action,
      target,
      outcome,
      requestId: who?.requestId ?? null,
      client: who?.client ?? null,
      detail: detail as never,
    });
    if (notification) await options.notifications.add(notification);
  };

  /** A failure the operator must see at once: its audit record and a critical notification. */
  const recordCriticalFailure = (
    who: Requester,
    action: string,
    target: string,
    error: ApiError,
    notice: { title: string; message: string; details: Record<string, unknown> },
  ) =>
    record(
      who,
      action,
      target,
      'failure',
      { code: error.code, message: error.message },
      { severity: 'critical', code: error.code, ...notice },
    );

  /** The agent picks its backend at start; remembered from its last status or read_rules answer. */
  let backendKind: Backend | null = null;
  const agentStatus = async (ask: AskAgent) => {
    const status = await ask<{ backend: Backend; pending_transaction: HeldTransaction | null }>('status');
    backendKind = status.backend;
    return status;
  };
  const currentBackend = async (ask: AskAgent) => backendKind ?? (await agentStatus(ask)).backend;

  /** Mirrors the agent's restore points into the store; the answer is the agent's list. */
  const syncRestorePoints = async (ask: AskAgent, createdBy: string) => {
    const { snapshots } = await ask<{ snapshots: RestorePointSummary[] }>('list_snapshots');
    await store.syncRestorePoints(snapshots, createdBy, await currentBackend(ask));
    return snapshots;
  };
  /** A restore point's creation: the retention in force now prunes the older ones. */
  const retained = () => ({ retention: options.retention() });

  /** Transactions whose failing rollback was already notified by this server process. */
  const alertedRollbacks = new Set<string>();
  const alertRollbackFailing = async ({ transaction_id, rollback_failure }: HeldTransaction) => {
    options.logger.error({ transaction_id, rollback_failure }, 'the agent cannot roll back a safe apply');
    await record(
      null,
      'firewall.transaction.rollback',
      transaction_id,
      'failure',
      { ...rollback_failure },
      {
        severity: 'critical',
        code: 'FW_ROLLBACK_FAILED',
        title: 'Firewall rollback failing',
        message: `Transaction ${transaction_id} passed its deadline but restoring the previous rules fails (${rollback_failure!.last_error}); the agent keeps retrying. Check the firewall now, or restore a restore point.`,
        details: { transaction_id, ...rollback_failure },
      },
    );
  };

  /** Pending transactions the agent no longer holds were rolled back by it (deadline, or a restore). */
  const reconcile = async (
    ask: AskAgent,
    reason = 'the agent no longer holds it: not confirmed before the deadline (the agent restored the previous rules), or a restore point replaced it',
  ) => {
    const pending = await store.pending();
    if (pending.length === 0) return;
    let heldTransaction: HeldTransaction | null;
    try {
      heldTransaction = (await agentStatus(ask)).pending_transaction;
    } catch {
      return; // no agent: nothing can be learned now
    }
    const held = heldTransaction?.transaction_id;
    if (heldTransaction?.rollback_failure && !alertedRollbacks.has(heldTransaction.transaction_id)) {
      alertedRollbacks.add(heldTransaction.transaction_id);
      await alertRollbackFailing(heldTransaction);
    }
    for (const transaction of pending) {
      if (transaction.id === held || !(await store.finish(transaction.id, 'rolled_back', reason))) continue;
      await record(
        null,
        'firewall.transaction.rollback',
        transaction.id,
        'success',
        { reason },
        {
          severity: 'warning',
          code: 'FW_TRANSACTION_ROLLED_BACK',
          title: 'Firewall change rolled back',
          message: `Transaction ${transaction.id} was rolled back: ${reason}.`,
          details: { transaction_id: transaction.id, restore_point_id: transaction.restore_point_id },
        },
      );
    }
  };

  /** An apply that failed in the agent (which restored the previous rules at once, or could not). */
  const failed = async (who: Requester, id: string, actions: unknown[], error: ApiError) => {
    await store.insert({
      id,
      state: 'failed',
      createdBy: who.actor,
      actions,
      restorePointId: null,
      deadline: null,
      error: error.message,
    });
    await recordCriticalFailure(who, 'firewall.transaction.apply', id, error, {
      title: 'Firewall change failed',
      message:
        error.code === 'FW_ROLLBACK_FAILED'
          ? `Transaction ${id} failed and restoring the previous rules failed too: check the firewall now.`
          : `Transaction ${id} failed; the previous rules were restored.`,
      details: { transaction_id: id, error: error.message },
    });
  };

  const isApplyFailure = (error: unknown): error is ApiError =>
    error instanceof ApiError && (error.code === 'FW_APPLY_FAILED' || error.code === 'FW_ROLLBACK_FAILED');

  // Each method serves one API request: its agent calls share one connection.
  return {
    reconcile: () => withAgent(socketPath, (ask) => reconcile(ask)),

    begin(asked: TransactionRequest, who: Requester): Promise<TransactionView> {
      return withAgent(socketPath, async (ask) => {
        // The backend decides what is valid (`limit` exists on ufw only); the lists holding the
        // client's address feed the lockout check.
        const reading = ask<CurrentRuleset & ForeignView>('read_rules', { address: who.client });
        reading.catch(() => undefined); // awaited below, after the list's own refusal (422) if any
        const request = { ...asked, blocklist: await asked.blocklist };
        const current = await reading;
        const { backend } = current;
        backendKind = backend;
        refuseForeignTargets(request.actions, current.foreign);
        const next = applyActions(current.rules, request.actions, backend);
        if (!next.ok)
          throw new ApiError('FW_VALIDATION_FAILED', 'the actions are invalid', { errors: next.errors });
        // Lines the request lets go are seen by the lockout check (the agent refuses the others).
        const risks = sessionLockoutRisks(
          current,
          {
            rules: next.rules,
            dropped: current.unparsed.filter((line) => request.acknowledgeUnmanaged.includes(line)),
            blocklist: request.blocklist,
          },
          { address: who.client, managementPort: request.managementPort },
        );
        if (risks.length > 0 && !request.acknowledgeLockout) {
          throw new ApiError(
            'FW_LOCKOUT_RISK',
            'the change would cut this session off; send acknowledge_lockout: true to apply it anyway',
            { conflicts: risks },
          );
        }
        const recorded = request.blocklist ? [blocklistAction(request.blocklist)] : request.actions;
        await record(who, 'firewall.transaction.request', 'transactions', 'success', {
          actions: request.actions.length,
          ...(request.blocklist ? { blocklist: recorded[0] } : {}),
          safe_apply: request.safeApply,
          acknowledged_lockout: risks.map((risk) => risk.code),
        });
        const ownId = randomUUID();
        // A blocklist change alone leaves the rules as they are (the agent rewrites nothing else).
        const change = {
          ...(request.blocklist && request.actions.length === 0 ? {} : { rules: next.rules }),
          ...(request.blocklist ? { blocklists: agentBlocklistChange(request.blocklist) } : {}),
          acknowledge_unmanaged: request.acknowledgeUnmanaged,
        };
        let applied: {
          id: string;
          snapshot: RestorePointSummary;
          deadline: number | null;
          handEdits: string[];
        };
        try {
          if (request.safeApply) {
            const answer = await ask<SafeApplyAnswer>('begin_safe_apply', {
              ...change,
              timeout_seconds: options.safeApplyTimeoutSeconds(),
              ...retained(),
            });
            applied = {
              id: answer.transaction_id,
              snapshot: answer.snapshot,
              deadline: Date.parse(answer.deadline),
              handEdits: answer.hand_edits_saved ?? [],
            };
          } else {
            const answer = await ask<Omit<SafeApplyAnswer, 'transaction_id' | 'deadline'>>('apply', {
              ...change,
              ...retained(),
            });
            applied = {
              id: ownId,
              snapshot: answer.snapshot,
              deadline: null,
              handEdits: answer.hand_edits_saved ?? [],
            };
          }
        } catch (error) {
          if (isApplyFailure(error)) await failed(who, ownId, recorded, error);
          throw error;
        }
        // Recorded from the answer first: the transaction names it even if another request's
        // point pruned it already (a retention of 1), or the list below fails.
        await store.recordRestorePoints([applied.snapshot], who.actor, backend);
        await syncRestorePoints(ask, who.actor).catch((error: unknown) =>
          options.logger.warn({ err: error }, 'could not list the restore points'),
        );
        const transaction = await store.insert({
          id: applied.id,
          state: request.safeApply ? 'pending' : 'applied',
          createdBy: who.actor,
          actions: recorded,
          restorePointId: applied.snapshot.id,
          deadline: applied.deadline,
          error: null,
        });
        await record(
          who,
          'firewall.transaction.apply',
          transaction.id,
          'success',
          {
            restore_point_id: applied.snapshot.id,
            deadline: transaction.deadline,
            rules: next.rules.length,
            ...(applied.handEdits.length > 0 ? { hand_edits_saved: applied.handEdits } : {}),
          },
          {
            severity: 'info',
            code: 'FW_TRANSACTION_APPLIED',
            title: 'Firewall change applied',
            message: request.safeApply
              ? `Transaction ${transaction.id} is live; it is rolled back at ${transaction.deadline} unless confirmed.`
              : `Transaction ${transaction.id} is live (no safe apply).`,
            details: { transaction_id: transaction.id, restore_point_id: applied.snapshot.id },
          },
        );
        if (applied.handEdits.length > 0) {
          await options.notifications.add({
            severity: 'warning',
            code: 'FW_HAND_EDITS_REPLACED',
            title: 'Hand edits in a firewarden block replaced',
            message: `Lines edited by hand inside firewarden's marked block were replaced by transaction ${transaction.id}; the files as they were are kept as ${applied.handEdits.join(', ')}. Put rules in through firewarden, or outside the block.`,
            details: { transaction_id: transaction.id, hand_edits_saved: applied.handEdits },
          });
        }
        return transaction;
      });
    },

    confirm(id: string, who: Requester): Promise<TransactionView> {
      return withAgent(socketPath, async (ask) => {
        let transaction = await store.get(id);
        if (!transaction) throw new ApiError('FW_TRANSACTION_NOT_FOUND', 'no transaction with this id');
        if (transaction.state === 'pending') {
          let confirmed = true;
          try {
            await ask('confirm', { transaction_id: id });
          } catch (error) {
            // The agent no longer holds it, or its deadline passed and the rollback is under way.
            if (!(error instanceof ApiError && error.code === 'FW_TRANSACTION_NOT_PENDING')) throw error;
            confirmed = false;
            await reconcile(ask);
          }
          if (confirmed && (await store.finish(id, 'confirmed'))) {
            await record(
              who,
              'firewall.transaction.confirm',
              id,
              'success',
              {},
              {
                severity: 'info',
                code: 'FW_TRANSACTION_CONFIRMED',
                title: 'Firewall change confirmed',
                message: `Transaction ${id} was confirmed and stays.`,
                details: { transaction_id: id },
              },
            );
            return (await store.get(id))!;
          }
          transaction = (await store.get(id))!;
        }
        throw new ApiError(
          'FW_TRANSACTION_NOT_PENDING',
          transaction.state === 'pending'
            ? 'the deadline of the transaction passed: the agent is rolling it back'
            : `the transaction is ${transaction.state}, not pending`,
          { state: transaction.state },
        );
      });
    },

    get(id: string): Promise<TransactionView> {
      return withAgent(socketPath, async (ask) => {
        await reconcile(ask);
        const transaction = await store.get(id);
        if (!transaction) throw new ApiError('FW_TRANSACTION_NOT_FOUND', 'no transaction with this id');
        return transaction;
      });
    },

    list(limit: number): Promise<TransactionView[]> {
      return withAgent(socketPath, async (ask) => {
        await reconcile(ask);
        return store.list(limit);
      });
    },

    listRestorePoints: () => withAgent(socketPath, (ask) => syncRestorePoints(ask, agentActor)),

    createRestorePoint(name: string | undefined, who: Requester): Promise<RestorePointSummary> {
      return withAgent(socketPath, async (ask) => {
        const point = await ask<RestorePointSummary>('snapshot', {
          kind: 'manual',
          note: name,
          ...retained(),
        });
        // The whole list: the new point, and the points its creation pruned.
        await syncRestorePoints(ask, who.actor);
        await record(who, 'firewall.snapshot.create', point.id, 'success', {
          hash: point.hash,
          name: point.note,
        });
        return point;
      });
    },

    restore(id: string, who: Requester) {
      return withAgent(socketPath, async (ask) => {
        let answer: { restored: string; hash: string; previous_snapshot_id: string };
        try {
          answer = await ask('restore', { snapshot_id: id, ...retained() });
        } catch (error) {
          if (error instanceof ApiError && error.code === 'FW_ROLLBACK_FAILED') {
            await recordCriticalFailure(who, 'firewall.snapshot.restore', id, error, {
              title: 'Restoring a restore point failed',
              message: `Restoring ${id} failed: check the firewall now.`,
              details: { restore_point_id: id, error: error.message },
            });
          }
          throw error;
        }
        // A restore settles a pending safe apply in the agent: record it as rolled back.
        await reconcile(ask, `replaced by restoring ${id}`);
        await syncRestorePoints(ask, who.actor).catch((error: unknown) =>
          options.logger.warn({ err: error }, 'could not list the restore points'),
        );
        await record(
          who,
          'firewall.snapshot.restore',
          id,
          'success',
          { hash: answer.hash, previous_restore_point_id: answer.previous_snapshot_id },
          {
            severity: 'warning',
            code: 'FW_SNAPSHOT_RESTORED',
            title: 'Restore point restored',
            message: `The firewall was restored to ${id}; the state before is kept as ${answer.previous_snapshot_id}.`,
            details: { restore_point_id: id, previous_restore_point_id: answer.previous_snapshot_id },
          },
        );
        return answer;
      });
    },
  };
}

export type FirewallChanges = ReturnType<typeof createFirewallChanges>;

/** What the transaction record keeps of a list change: never its entries. */
function blocklistAction(change: BlocklistRequest) {
  return change.op === 'set'
    ? {
        op: 'set_blocklist',
        name: change.list.name,
        family: change.list.family,
        entries: change.merged.stored,
        received: change.merged.received,
      }
    : { op: 'delete_blocklist', name: change.name };
}
