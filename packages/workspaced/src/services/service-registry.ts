/**
 * @module The service registry in SQLite: a named port on this host (a dev server, a database),
 * optionally with the URL to open and the project it belongs to. Names are unique.
 */
import type { WorkspacedDb } from '../db/open-database.js';
import type { ServiceRow } from '../db/schema.js';
import { ApiError } from '../http/api-error.js';

interface NewService {
  name: string;
  port: number;
  url: string | null;
  project_id: number | null;
}

export function serviceView(row: ServiceRow, listening: boolean) {
  return {
    name: row.name,
    port: row.port,
    url: row.url,
    project_id: row.project_id,
    created_by: row.created_by,
    created_at: new Date(row.created_at).toISOString(),
    listening,
  };
}

export function listServices(db: WorkspacedDb): Promise<ServiceRow[]> {
  return db.selectFrom('services').selectAll().orderBy('name').execute();
}

export function findService(db: WorkspacedDb, name: string): Promise<ServiceRow | undefined> {
  return db.selectFrom('services').selectAll().where('name', '=', name).executeTakeFirst();
}

export async function registerService(
  db: WorkspacedDb,
  input: NewService,
  userId: string,
): Promise<ServiceRow> {
  const row = { ...input, created_by: userId, created_at: Date.now() };
  // One statement, so two concurrent registrations of one name cannot both succeed.
  const inserted = await db
    .insertInto('services')
    .values(row)
    .onConflict((conflict) => conflict.column('name').doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0)
    throw new ApiError('SERVICE_EXISTS', `a service named ${input.name} is already registered`);
  return row;
}

export async function removeService(db: WorkspacedDb, name: string): Promise<void> {
  await db.deleteFrom('services').where('name', '=', name).execute();
}
