/**
 * @module Who may create the first owner. On a data dir without an owner the daemon makes a
 * one-time setup token (256 random bits, base64url), writes it to `<data-dir>/setup-token`
 * (mode 0600, readable only by the daemon's OS user) and prints the setup URL with it after its
 * listening line; `POST /setup` then needs it, so another local process cannot claim the daemon
 * by calling first. A new token is made at every start without an owner; the file is deleted once
 * the owner exists. `--setup-open` (tests, containers) keeps setup open to the first caller.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const setupTokenFileName = 'setup-token';

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();

export class SetupGate {
  #digest: Buffer | undefined;

  private constructor(
    private readonly file: string,
    token: string | undefined,
  ) {
    this.#digest = token === undefined ? undefined : digest(token);
  }

  /**
   * The gate of a daemon starting on `dataDir`, with the token it made (undefined when setup is
   * open or done). Any token file left from an earlier start is replaced or removed.
   */
  static create(dataDir: string, options: { ownerExists: boolean; open: boolean }) {
    const file = path.join(dataDir, setupTokenFileName);
    rmSync(file, { force: true });
    if (options.ownerExists || options.open)
      return { gate: new SetupGate(file, undefined), token: undefined };
    const token = randomBytes(32).toString('base64url');
    // `wx`: created here with 0600, never through a file or link someone put in its place.
    writeFileSync(file, `${token}\n`, { mode: 0o600, flag: 'wx' });
    return { gate: new SetupGate(file, token), token };
  }

  /** Whether `POST /setup` must carry the token. */
  get tokenRequired(): boolean {
    return this.#digest !== undefined;
  }

  /** Compared as SHA-256 digests in constant time (equal lengths whatever was sent). */
  accepts(candidate: string | undefined): boolean {
    if (this.#digest === undefined) return true;
    return candidate !== undefined && timingSafeEqual(digest(candidate), this.#digest);
  }

  /** The owner exists: the token is spent and its file removed. */
  close(): void {
    this.#digest = undefined;
    rmSync(this.file, { force: true });
  }
}

/** The URL the daemon prints: the token rides in the fragment, which no request, log or Referer carries. */
export function setupUrl(baseUrl: string, token: string): string {
  return `${baseUrl}/setup#token=${token}`;
}
