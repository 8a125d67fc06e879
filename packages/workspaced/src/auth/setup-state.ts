/**
 * @module Whether the first owner exists. The winning `POST /setup` inserts the single `setup`
 * row (primary key 1) before creating the owner, so of two concurrent setups (even in two
 * processes on one data dir) exactly one gets past the claim; a failed creation releases it.
 */
import type { WorkspacedDb } from '../db/open-database.js';

/** owner_id of a claim whose owner is still being created. */
const claimed = '';

export async function setupPending(db: WorkspacedDb): Promise<boolean> {
  const row = await db.selectFrom('setup').select('owner_id').where('id', '=', 1).executeTakeFirst();
  return row === undefined || row.owner_id === claimed;
}

export async function ownerExists(db: WorkspacedDb): Promise<boolean> {
  return !(await setupPending(db));
}

/** True for the one caller that may create the owner. */
export async function claimSetup(db: WorkspacedDb): Promise<boolean> {
  const result = await db
    .insertInto('setup')
    .values({ id: 1, owner_id: claimed, completed_at: Date.now() })
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}

export async function completeSetup(db: WorkspacedDb, ownerId: string): Promise<void> {
  await db
    .updateTable('setup')
    .set({ owner_id: ownerId, completed_at: Date.now() })
    .where('id', '=', 1)
    .execute();
}

export async function releaseSetup(db: WorkspacedDb): Promise<void> {
  await db.deleteFrom('setup').where('id', '=', 1).where('owner_id', '=', claimed).execute();
}

/** A claim left by a process that died mid-setup would block setup forever: drop it at start. */
export async function dropStaleClaim(db: WorkspacedDb): Promise<void> {
  await releaseSetup(db);
}
