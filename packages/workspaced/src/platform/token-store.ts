/**
 * @module Platform tokens in SQLite. The secret (`wsd_<id>_<64 hex>`, 32 random bytes) is shown
 * once; only its SHA-256 is stored (a fast hash suffices for a high-entropy secret). A token is
 * found by the id its secret carries and compared by hash in constant time.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { WorkspacedDb } from '../db/open-database.js';
import type { ApiTokenRow } from '../db/schema.js';
import type { TokenScope } from './token-scopes.js';

interface NewToken {
  name: string;
  userId: string;
  scopes: readonly TokenScope[];
  expiresAt: number | null;
}

const secretPattern = /^wsd_([0-9a-f]{16})_([0-9a-f]{64})$/;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

export function tokenView(row: ApiTokenRow) {
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  return {
    id: row.id,
    name: row.name,
    user_id: row.user_id,
    scopes: JSON.parse(row.scopes) as TokenScope[],
    created_at: iso(row.created_at),
    expires_at: iso(row.expires_at),
    last_used_at: iso(row.last_used_at),
    revoked_at: iso(row.revoked_at),
  };
}

export async function createToken(
  db: WorkspacedDb,
  input: NewToken,
): Promise<{ row: ApiTokenRow; secret: string }> {
  const id = randomBytes(8).toString('hex');
  const secret = `wsd_${id}_${randomBytes(32).toString('hex')}`;
  const row: ApiTokenRow = {
    id,
    name: input.name,
    user_id: input.userId,
    token_hash: sha256(secret),
    scopes: JSON.stringify(input.scopes),
    created_at: Date.now(),
    expires_at: input.expiresAt,
    last_used_at: null,
    revoked_at: null,
  };
  await db.insertInto('api_tokens').values(row).execute();
  return { row, secret };
}

export function listTokens(db: WorkspacedDb, userId: string): Promise<ApiTokenRow[]> {
  return db
    .selectFrom('api_tokens')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .execute();
}

export function findToken(db: WorkspacedDb, id: string): Promise<ApiTokenRow | undefined> {
  return db.selectFrom('api_tokens').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function revokeToken(db: WorkspacedDb, id: string): Promise<void> {
  await db
    .updateTable('api_tokens')
    .set({ revoked_at: Date.now() })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .execute();
}

/** The live token `secret` belongs to, or undefined (unknown, wrong, revoked or expired). */
export async function verifyToken(db: WorkspacedDb, secret: string): Promise<ApiTokenRow | undefined> {
  const match = secretPattern.exec(secret);
  if (!match) return undefined;
  const row = await findToken(db, match[1]!);
  if (!row) return undefined;
  const equal = timingSafeEqual(Buffer.from(row.token_hash, 'hex'), Buffer.from(sha256(secret), 'hex'));
  if (!equal || row.revoked_at !== null || (row.expires_at !== null && row.expires_at <= Date.now()))
    return undefined;
  return row;
}

/** Last use, written at most once a minute per token. */
export async function touchToken(db: WorkspacedDb, row: ApiTokenRow): Promise<void> {
  const now = Date.now();
  if (row.last_used_at !== null && now - row.last_used_at < 60_000) return;
  await db.updateTable('api_tokens').set({ last_used_at: now }).where('id', '=', row.id).execute();
}
