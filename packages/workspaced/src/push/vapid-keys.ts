/**
 * @module The daemon's VAPID key pair (RFC 8292): a P-256 key that signs the JWT every push
 * request carries, so a push service knows the pushes to a subscription come from the server the
 * browser subscribed with. Generated once, at the first start, into `<data-dir>/push-vapid.json`
 * (mode 0600, created exclusively like the setup token, so two daemons starting at once agree on
 * one pair) and reused at every start: a new pair would orphan every browser's subscription.
 */
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import webPush from 'web-push';

const vapidKeyFileName = 'push-vapid.json';

export interface VapidKeys {
  /** The uncompressed P-256 public key, base64url (65 bytes): the browser's `applicationServerKey`. */
  publicKey: string;
  /** The private scalar, base64url (32 bytes); never leaves the data dir. */
  privateKey: string;
}

export class VapidKeyError extends Error {
  override name = 'VapidKeyError';
}

const base64url = /^[A-Za-z0-9_-]+$/;

function readVapidKeys(file: string): VapidKeys | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new VapidKeyError(`cannot read the VAPID keys ${file}: ${(error as Error).message}`);
  }
  if ((statSync(file).mode & 0o077) !== 0)
    throw new VapidKeyError(`the VAPID keys ${file} are readable by group or others: chmod 600 it`);
  let keys: Partial<VapidKeys>;
  try {
    keys = JSON.parse(text) as Partial<VapidKeys>;
  } catch {
    throw new VapidKeyError(`the VAPID keys ${file} are not JSON: it was altered`);
  }
  const { publicKey, privateKey } = keys;
  if (
    typeof publicKey !== 'string' ||
    typeof privateKey !== 'string' ||
    !base64url.test(publicKey) ||
    !base64url.test(privateKey) ||
    Buffer.from(publicKey, 'base64url').length !== 65 ||
    Buffer.from(privateKey, 'base64url').length !== 32
  )
    throw new VapidKeyError(`the VAPID keys ${file} are not a P-256 key pair: it was altered`);
  return { publicKey, privateKey };
}

/** The pair in the data dir, created (mode 0600) at the first call. */
export function loadOrCreateVapidKeys(dataDir: string): VapidKeys {
  const file = path.join(dataDir, vapidKeyFileName);
  const existing = readVapidKeys(file);
  if (existing) return existing;
  const { publicKey, privateKey } = webPush.generateVAPIDKeys();
  try {
    // `wx` (O_CREAT | O_EXCL): created here with 0600, never through a file or link put in its place.
    writeFileSync(file, `${JSON.stringify({ publicKey, privateKey })}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    // Another daemon on this data dir created it first: use theirs.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return readVapidKeys(file) as VapidKeys;
}
