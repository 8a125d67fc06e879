/**
 * The server's errors about pasted or uploaded entries, named by the line the user sees. The text
 * is read by the engine's own `readBlocklistFile`, as `firewarden blocklist set --file` reads it.
 */
import type { BlocklistFileLines } from '../../../src/engine/blocklist-file.js';
import type { FieldError } from '../api';

/** The server's entry errors as lines of the text: `line 3 (300.1.1.1): not an address`. */
export function lineErrors(errors: FieldError[], read: BlocklistFileLines): string[] {
  return errors.map((error) => {
    const match = /^entries\.(\d+)$/.exec(error.path);
    if (match === null) return error.message;
    const index = Number(match[1]);
    return `line ${read.lines[index] ?? index + 1} (${read.entries[index] ?? ''}): ${error.message}`;
  });
}
