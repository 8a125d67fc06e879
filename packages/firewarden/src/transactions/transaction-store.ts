/**
 * @module The server's record of firewall transactions (`transactions` table) and of the agent's
 * restore points (`restore_points`, metadata and hash only: the saved firewall state itself stays
 * in the agent's root-only state folder). A state change is conditional on the current state, so
 * two requests that notice the same rollback record it once. A point the agent pruned keeps its
 * row, marked (`state` = `{"pruned_at": ...}`): transactions name it, and no row is ever deleted
 * under a transaction about to name it.
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

/** `state` of a point the agent holds. */
const keptByAgent = JSON.stringify({ kept_by: 'agent' });

/** Rows per statement: 20,000 points (the largest retention) would pass SQLite's bound on parameters. */
function batches<T>(items: readonly T[], size = 1_000): T[][] {
  const parts: T[][] = [];
  for (let i = 0; i < items.length; i += size) parts.push(items.slice(i, i + size));
  return parts;
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

  /** Records the points the server has not seen yet; a point recorded already stays as it is. */
  const recordRestorePoints = async (
    points: readonly RestorePointSummary[],
    createdBy: string,
    backend: string,
  ): Promise<void> => {
    for (const part of batches(points)) {
      await db
        .insertInto('restore_points')
        .values(
          part.map((point) => ({
            id: point.id,
            kind: point.kind,
            created_at: Date.parse(point.created_at),
            created_by: createdBy,
            label: point.note,
            backend,
            state_sha256: point.hash,
            state: keptByAgent,
          })),
        )
        .onConflict((conflict) => conflict.column('id').doNothing())
        .execute();
    }
  };

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

    /**
     * Mirrors the agent's whole list (the source of truth): points the server has not seen yet
     * are recorded, and the ones it recorded that the agent no longer holds are marked pruned.
     */
    async syncRestorePoints(
      points: readonly RestorePointSummary[],
      createdBy: string,
      backend: string,
    ): Promise<void> {
      // Only the rows that can change are read: those the agent held at the last sync (bounded by
      // the retention) and those of the points listed; the table itself only grows.
      const held = new Set(points.map((point) => point.id));
      const kept = await db
        .selectFrom('restore_points')
        .select('id')
        .where('state', '=', keptByAgent)
        .execute();
      const pruned = kept.map((row) => row.id).filter((id) => !held.has(id));
      const known = new Map<string, string>();
      for (const part of batches([...held])) {
        const rows = await db
          .selectFrom('restore_points')
          .select(['id', 'state'])
          .where('id', 'in', part)
          .execute();
        for (const row of rows) known.set(row.id, row.state);
      }
      // A sync that listed before a point existed marks it pruned if it runs last: undone here.
      const heldAgain = points.filter((point) => known.has(point.id) && known.get(point.id) !== keptByAgent);
      const markings: [string[], string][] = [
        [pruned, JSON.stringify({ pruned_at: new Date(now()).toISOString() })],
        [heldAgain.map((point) => point.id), keptByAgent],
      ];
      for (const [ids, state] of markings) {
        for (const part of batches(ids)) {
          await db.updateTable('restore_points').set({ state }).where('id', 'in', part).execute();
        }
      }
      await recordRestorePoints(
        points.filter((point) => !known.has(point.id)),
        createdBy,
        backend,
      );
    },

    recordRestorePoints,
  };
}

export type TransactionStore = ReturnType<typeof createTransactionStore>;
