/**
 * Pasted or uploaded text -> blocklist entries, read as `firewarden blocklist set --file` reads a
 * file (one entry a line, `#` starts a comment, blank lines ignored), keeping each entry's line
 * number so the server's errors (`entries.N`) can name the line the user sees.
 */
import type { FieldError } from '../api';

export interface EntryLines {
  entries: string[];
  /** `lines[i]`: the line (from 1) entry `i` came from. */
  lines: number[];
}

export function entriesOfText(text: string): EntryLines {
  const entries: string[] = [];
  const lines: number[] = [];
  text.split('\n').forEach((line, index) => {
    const hash = line.indexOf('#');
    const entry = (hash === -1 ? line : line.slice(0, hash)).trim();
    if (entry === '') return;
    entries.push(entry);
    lines.push(index + 1);
  });
  return { entries, lines };
}

/** The server's entry errors as lines of the text: `line 3 (300.1.1.1): not an address`. */
export function lineErrors(errors: FieldError[], read: EntryLines): string[] {
  return errors.map((error) => {
    const match = /^entries\.(\d+)$/.exec(error.path);
    if (match === null) return error.message;
    const index = Number(match[1]);
    return `line ${read.lines[index] ?? index + 1} (${read.entries[index] ?? ''}): ${error.message}`;
  });
}
