/**
 * @module The chain head kept outside the database: the seq and hash of the newest entry, written
 * after appends commit (one write at a time, to the newest entry, see audit-log.ts). Whoever can change the database but not this file cannot delete the
 * newest entries (truncation) or roll the trail back unnoticed: verification requires the entry
 * the head names. The commit and the head write are not atomic, so after a crash the head may name
 * an entry before the newest (one, or the few committed during the last head write); entries past the head are still authenticated by their MAC, and
 * verification reports how many there are (`unanchored`).
 */
import { randomBytes } from 'node:crypto';
import { open, readFile, rename, stat, unlink } from 'node:fs/promises';

export interface AuditHead {
  seq: number;
  /** The entry's `hash` column: its HMAC (or legacy hash). */
  mac: string;
}

export interface AuditHeadStore {
  /** The stored head, or null when none was ever written. Throws when it is unreadable. */
  read(): Promise<AuditHead | null>;
  /** Stores `head` unless the stored one is already newer (several appenders may race). */
  advance(head: AuditHead): Promise<void>;
  /** Where it lives, for messages. */
  readonly location: string;
}

export class AuditHeadError extends Error {
  override name = 'AuditHeadError';
}

function parseHead(text: string, location: string): AuditHead {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new AuditHeadError(`the audit head ${location} is not JSON`);
  }
  const { seq, mac } = (parsed ?? {}) as Partial<AuditHead>;
  if (
    !Number.isSafeInteger(seq) ||
    (seq as number) < 1 ||
    typeof mac !== 'string' ||
    !/^[0-9a-f]{64}$/.test(mac)
  )
    throw new AuditHeadError(`the audit head ${location} is not {seq, mac}`);
  return { seq: seq as number, mac };
}

/**
 * The head in a small JSON file (mode 0600), replaced atomically (written aside, synced, renamed).
 * A replacement keeps the owner of the file it replaces: an administrator's command run as root
 * (`sudo firewarden user disable ...`) must not leave a head the service's own user cannot read.
 */
export function fileAuditHead(file: string): AuditHeadStore {
  async function read(): Promise<AuditHead | null> {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw new AuditHeadError(`cannot read the audit head ${file}: ${(error as Error).message}`);
    }
    return parseHead(text, file);
  }
  return {
    location: file,
    read,
    async advance(head) {
      const stored = await read().catch(() => null);
      if (stored && stored.seq >= head.seq) return;
      const owner = process.getuid?.() === 0 ? await stat(file).catch(() => null) : null;
      const aside = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.new`;
      const handle = await open(aside, 'wx', 0o600);
      try {
        if (owner) await handle.chown(owner.uid, owner.gid);
        await handle.writeFile(`${JSON.stringify({ seq: head.seq, mac: head.mac })}\n`);
        await handle.sync();
      } finally {
        await handle.close();
      }
      try {
        await rename(aside, file);
      } catch (error) {
        await unlink(aside).catch(() => undefined);
        throw error;
      }
    },
  };
}

/** A head held in memory: for a WebAuth without a persistent key (tests, tools), lost at exit. */
export function memoryAuditHead(): AuditHeadStore {
  let current: AuditHead | null = null;
  return {
    location: 'memory',
    read: async () => current,
    async advance(head) {
      if (!current || current.seq < head.seq) current = { ...head };
    },
  };
}
