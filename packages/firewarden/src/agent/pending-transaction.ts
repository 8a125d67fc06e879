/**
 * @module The one safe-apply transaction waiting for its confirm, kept on disk next to the
 * restore points so an agent that restarts during the window still rolls back (at once when the
 * deadline passed while it was down).
 */
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

export interface PendingTransaction {
  transaction_id: string;
  snapshot_id: string;
  /** Epoch milliseconds. */
  deadline: number;
}

export class PendingFile {
  private readonly file: string;
  constructor(stateDir: string) {
    this.file = path.join(stateDir, 'pending-transaction.json');
  }

  async read(): Promise<PendingTransaction | null> {
    try {
      const value = JSON.parse(await readFile(this.file, 'utf8')) as PendingTransaction;
      return typeof value.transaction_id === 'string' && typeof value.deadline === 'number' ? value : null;
    } catch {
      return null;
    }
  }

  async write(pending: PendingTransaction): Promise<void> {
    await writeFile(`${this.file}.tmp`, JSON.stringify(pending), { mode: 0o600 });
    await rename(`${this.file}.tmp`, this.file);
  }

  async clear(): Promise<void> {
    await rm(this.file, { force: true });
  }
}
