/**
 * @module The audit chain's HMAC key, kept in a file outside the database (so a copy or an edit of
 * the database alone cannot recompute the chain). Created once, 32 random bytes as hex, mode 0600;
 * created atomically (written aside, then hard-linked into place) so two processes starting at once
 * agree on one key.
 */
import { randomBytes } from 'node:crypto';
import { linkSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';

const keyBytes = 32;

export class AuditKeyError extends Error {
  override name = 'AuditKeyError';
}

/** The key in `file`, or null when the file does not exist. Refuses a file readable by others. */
export function readAuditKey(file: string): Buffer | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new AuditKeyError(`cannot read the audit key ${file}: ${(error as Error).message}`);
  }
  if ((statSync(file).mode & 0o077) !== 0)
    throw new AuditKeyError(`the audit key ${file} is readable by group or others: chmod 600 it`);
  if (!/^[0-9a-f]{64}$/.test(text))
    throw new AuditKeyError(`the audit key ${file} is not ${keyBytes} bytes of hex: it was altered`);
  return Buffer.from(text, 'hex');
}

/** The key in `file`, created (mode 0600) when the file does not exist yet. */
export function loadOrCreateAuditKey(file: string): Buffer {
  const existing = readAuditKey(file);
  if (existing) return existing;
  const aside = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.new`;
  writeFileSync(aside, `${randomBytes(keyBytes).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
  try {
    linkSync(aside, file);
  } catch (error) {
    // Another process created it first: use theirs.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    unlinkSync(aside);
  }
  return readAuditKey(file) as Buffer;
}
