/**
 * @module The server's record of firewall transactions (`transactions` table) and of the agent's
 * restore points (`restore_points`, metadata and hash only: the saved firewall state itself stays
 * in the agent's root-only state folder). A state change is conditional on the current state, so
 * two requests that notice the same rollback record it once.
 */
import type { Kysely } from 'kysely';
import type { Clock } from '../clock/clock.js';
import type { Database } from '../store/database.js';
import { type TransactionsTable, toMillis } from '../store/tables.js';

type TransactionState = 'pending' | 'confirmed' | 'applied' | 'rolled_back' | 'failed';

export interface TransactionView {
  id: string;
  state: TransactionState;
  created_at: string;
  created_by: string;
  actions: unknown[];
  restore_point_id: string | null;
  /** Safe apply: the agent rolls back at this instant unless confirmed. */
  deadline: string | null;
  finished_at: string | null;
  error: string | null;
}

/** A restore point as the agent lists it. */
export interface RestorePointSummary {
  id: string;
  kind: 'automatic' | 'manual';
  created_at: string;
  note: string | null;
  hash: string;
}

interface NewTransaction {
  id: string;
  state: TransactionState;
  createdBy: string;
  actions: unknown[];
  restorePointId: string | null;
  deadline: number | null;
  error: string | null;
}

const iso = (value: TransactionsTable['created_at'] | null) =>
  value === null ? null : new Date(toMillis(value)).toISOString();

export function createTransactionStore(db: Kysely<Database>, now: Clock) {
  const view = (row: TransactionsTable): TransactionView => ({
    id: row.id,
    state: row.status as TransactionState,
    created_at: iso(row.created_at)!,
    created_by: row.created_by,
    actions: JSON.parse(row.actions) as unknown[],
    restore_point_id: row.restore_point_id,
    deadline: iso(row.confirm_deadline_at),
    finished_at: iso(row.finished_at),
    error: row.error,
  });

  return {
    async insert(transaction: NewTransaction): Promise<TransactionView> {
      const at = now();
      const row: TransactionsTable = {
        id: transaction.id,
        status: transaction.state,
        created_at: at,
        created_by: transaction.createdBy,
        actions: JSON.stringify(transaction.actions),
        restore_point_id: transaction.restorePointId,
        confirm_deadline_at: transaction.deadline,
        finished_at: transaction.state === 'pending' ? null : at,
        error: transaction.error,
      };
      await db.insertInto('transactions').values(row).execute();
      return view(row);
    },

    async get(id: string): Promise<TransactionView | null> {
      const row = await db.selectFrom('transactions').selectAll().where('id', '=', id).executeTakeFirst();
      return row ? view(row) : null;
    },

    /** Newest first. */
    async list(limit: number): Promise<TransactionView[]> {
      const rows = await db
        .selectFrom('transactions')
        .selectAll()
        .orderBy('created_at', 'desc')
        .orderBy('id')
        .limit(limit)
        .execute();
      return rows.map(view);
    },

    async pending(): Promise<TransactionView[]> {
      const rows = await db.selectFrom('transactions').selectAll().where('status', '=', 'pending').execute();
      return rows.map(view);
    },

    /** Moves a pending transaction to its final state; false when it was no longer pending. */
    async finish(id: string, state: TransactionState, error: string | null = null): Promise<boolean> {
      const result = await db
        .updateTable('transactions')
        .set({ status: state, finished_at: now(), error })
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** Records restore points the server has not seen yet (the agent is the source of truth). */
    async recordRestorePoints(
      points: readonly RestorePointSummary[],
      createdBy: string,
      backend: string,
    ): Promise<void> {
      if (points.length === 0) return;
      await db
        .insertInto('restore_points')
        .values(
          points.map((point) => ({
            id: point.id,
            kind: point.kind,
            created_at: Date.parse(point.created_at),
            created_by: createdBy,
            label: point.note,
            backend,
            state_sha256: point.hash,
            state: JSON.stringify({ kept_by: 'agent' }),
          })),
        )
        .onConflict((conflict) => conflict.column('id').doNothing())
        .execute();
    },
  };
}

export type TransactionStore = ReturnType<typeof createTransactionStore>;
