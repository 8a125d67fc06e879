/**
 * @module Peer daemons in SQLite. A node is `pending` until a credential exists in either
 * direction, `paired` after, `revoked` once an administrator erased its secrets. Revoked is final:
 * no new pairing code, no new credential (409 `NODE_REVOKED`); pairing that peer again takes a
 * new registration, as deliberate an act as the first one.
 * Pairing codes last 10 minutes, are used once and allow 5 guesses: each attempt first reserves
 * one of them in a single UPDATE, so concurrent guesses cannot exceed the limit.
 */
import { sql } from 'kysely';
import type { WorkspacedDb } from '../db/open-database.js';
import type { NodeRow } from '../db/schema.js';
import { ApiError } from '../http/api-error.js';
import { fingerprintOf } from './node-identity.js';
import {
  canonicalPairingCode,
  hashSecret,
  newNodeCredential,
  newPairingCode,
  pairingCodeMatches,
} from './node-secrets.js';

const pairingCodeLifetimeMs = 10 * 60_000;
const pairingAttempts = 5;

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function nodeView(row: NodeRow) {
  const open = row.pairing_code_hash !== null && (row.pairing_expires_at ?? 0) > Date.now();
  return {
    id: row.id,
    name: row.name,
    url: row.url,
    status: row.status,
    public_key: row.public_key,
    fingerprint: row.public_key === null ? null : fingerprintOf(row.public_key),
    /** This daemon holds a credential for the node (may read its agents). */
    outbound: row.outbound_credential !== null,
    /** The node holds a credential for this daemon (may read our agents). */
    inbound: row.inbound_credential_hash !== null,
    pairing_expires_at: open ? iso(row.pairing_expires_at) : null,
    created_at: iso(row.created_at),
    paired_at: iso(row.paired_at),
    last_seen_at: iso(row.last_seen_at),
    revoked_at: iso(row.revoked_at),
  };
}

export function listNodes(db: WorkspacedDb): Promise<NodeRow[]> {
  return db.selectFrom('nodes').selectAll().orderBy('id').execute();
}

export function findNode(db: WorkspacedDb, id: number): Promise<NodeRow | undefined> {
  return db.selectFrom('nodes').selectAll().where('id', '=', id).executeTakeFirst();
}

interface NewNode {
  name: string;
  url: string;
  public_key: string | null;
}

export async function createNode(db: WorkspacedDb, node: NewNode, userId: string): Promise<NodeRow> {
  const { name } = node;
  const inserted = await db
    .insertInto('nodes')
    .values({ ...node, status: 'pending', created_by: userId, created_at: Date.now() })
    .onConflict((conflict) => conflict.column('name').doNothing())
    .returningAll()
    .executeTakeFirst();
  if (!inserted) throw new ApiError('NODE_NAME_TAKEN', `a node named ${name} is already registered`);
  return inserted;
}

const nodeRevoked = () => new ApiError('NODE_REVOKED', 'this node is revoked; register it again to pair');

/** A fresh code replaces any open one (and its spent guesses); only its hash is kept. */
export async function openPairing(
  db: WorkspacedDb,
  row: NodeRow,
): Promise<{ code: string; expiresAt: number }> {
  const code = newPairingCode();
  const expiresAt = Date.now() + pairingCodeLifetimeMs;
  // The status is checked in the UPDATE itself, so a revoke racing this call still wins.
  const opened = await db
    .updateTable('nodes')
    .set({
      pairing_code_hash: hashSecret(canonicalPairingCode(code)!),
      pairing_expires_at: expiresAt,
      pairing_failures: 0,
    })
    .where('id', '=', row.id)
    .where('status', '!=', 'revoked')
    .executeTakeFirst();
  if (Number(opened.numUpdatedRows) !== 1) throw nodeRevoked();
  return { code, expiresAt };
}

const pairingRefused = () =>
  new ApiError('PAIRING_CODE_INVALID', 'the pairing code is wrong, expired, used or out of attempts');

/**
 * The remote side of pairing: the node presents the code; a right one is consumed and a new
 * credential returned (only its hash stays here). Unknown node, no open code, expiry, spent
 * attempts and a wrong code all answer the same, so nothing about the node leaks.
 */
export async function redeemPairingCode(db: WorkspacedDb, nodeId: number, code: string): Promise<string> {
  const now = Date.now();
  const reserved = await db
    .updateTable('nodes')
    .set({ pairing_failures: sql`pairing_failures + 1` })
    .where('id', '=', nodeId)
    .where('status', '!=', 'revoked')
    .where('pairing_code_hash', 'is not', null)
    .where('pairing_expires_at', '>', now)
    .where('pairing_failures', '<', pairingAttempts)
    .returning(['pairing_code_hash'])
    .executeTakeFirst();
  if (!reserved?.pairing_code_hash || !pairingCodeMatches(code, reserved.pairing_code_hash))
    throw pairingRefused();
  const credential = newNodeCredential();
  // Consumed in the same statement that checks it is still the same code: used once, even in a race.
  const consumed = await db
    .updateTable('nodes')
    .set({
      pairing_code_hash: null,
      pairing_expires_at: null,
      inbound_credential_hash: hashSecret(credential),
      status: 'paired',
      paired_at: now,
    })
    .where('id', '=', nodeId)
    .where('pairing_code_hash', '=', reserved.pairing_code_hash)
    .where('status', '!=', 'revoked')
    .executeTakeFirst();
  if (Number(consumed.numUpdatedRows) !== 1) throw pairingRefused();
  return credential;
}

/** Refuses a revoked node before anything is sent to it. */
export function assertNotRevoked(row: NodeRow): void {
  if (row.status === 'revoked') throw nodeRevoked();
}

/**
 * Keeps the credential the node issued to us, to present on each call to it, and its key; a node
 * revoked while the pairing was under way keeps nothing.
 */
export async function storeOutboundCredential(
  db: WorkspacedDb,
  row: NodeRow,
  credential: string,
  publicKey: string,
): Promise<NodeRow> {
  const stored = await db
    .updateTable('nodes')
    .set({
      outbound_credential: credential,
      public_key: publicKey,
      status: 'paired',
      paired_at: Date.now(),
    })
    .where('id', '=', row.id)
    .where('status', '!=', 'revoked')
    .returningAll()
    .executeTakeFirst();
  if (!stored) throw nodeRevoked();
  return stored;
}

/** The node whose credential this is (and notes that it was seen), or undefined. */
export async function nodeByCredential(db: WorkspacedDb, credential: string): Promise<NodeRow | undefined> {
  return db
    .updateTable('nodes')
    .set({ last_seen_at: Date.now() })
    .where('inbound_credential_hash', '=', hashSecret(credential))
    .where('status', '=', 'paired')
    .returningAll()
    .executeTakeFirst();
}

/** Erases every secret of the node at once: its credential stops working with the next request. */
export async function revokeNode(db: WorkspacedDb, row: NodeRow): Promise<NodeRow> {
  return db
    .updateTable('nodes')
    .set({
      status: 'revoked',
      pairing_code_hash: null,
      pairing_expires_at: null,
      inbound_credential_hash: null,
      outbound_credential: null,
      revoked_at: row.status === 'revoked' ? row.revoked_at : Date.now(),
    })
    .where('id', '=', row.id)
    .returningAll()
    .executeTakeFirstOrThrow();
}
