/**
 * @module The one safe-apply transaction waiting for its confirm, kept on disk next to the
 * restore points (flushed and renamed, see durable-file.ts). It is written as an *intent* before
 * the kernel is touched, so an agent killed at any step finds it at start: an intent (the caller
 * never learned its id; the kernel write may or may not have happened) is rolled back at once,
 * an *armed* transaction is re-armed for what is left of its window (at once when the deadline
 * passed while the agent was down). Restoring a restore point is idempotent, so rolling back a
 * write that never happened is harmless.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { removeDurably, writeDurably } from './durable-file.js';

export interface PendingTransaction {
  transaction_id: string;
  snapshot_id: string;
  /** Epoch milliseconds. */
  deadline: number;
  /** `intent`: written before the kernel write; `armed`: applied, verified and answered. */
  phase: 'intent' | 'armed';
}

export class PendingFile {
  private readonly file: string;
  constructor(stateDir: string) {
    this.file = path.join(stateDir, 'pending-transaction.json');
  }

  async read(): Promise<PendingTransaction | null> {
    let value: Partial<PendingTransaction>;
    try {
      value = JSON.parse(await readFile(this.file, 'utf8')) as Partial<PendingTransaction>;
    } catch {
      return null;
    }
    if (typeof value.transaction_id !== 'string' || typeof value.snapshot_id !== 'string') return null;
    if (typeof value.deadline !== 'number') return null;
    // A file without a phase predates intents: it was written after the kernel write, so armed.
    return { ...(value as PendingTransaction), phase: value.phase === 'intent' ? 'intent' : 'armed' };
  }

  write(pending: PendingTransaction): Promise<void> {
    return writeDurably(this.file, JSON.stringify(pending));
  }

  clear(): Promise<void> {
    return removeDurably(this.file);
  }
}
