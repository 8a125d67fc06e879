/**
 * Which files of a diff start open. A review of a few files shows them all; a big one (2,000
 * files, or one file of thousands of lines) must not render tens of thousands of rows at once,
 * so files open in order while the shown lines stay within a budget, and any file longer than
 * one screenful of budget starts closed (its header says how many lines it holds).
 */
import type { DiffFile } from '../types.js';

/** A file with more patch lines than this starts closed. */
export const maxOpenFileLines = 600;
/** Files open in order until this many patch lines are shown. */
const openLinesBudget = 3_000;

/** The number of lines of a file's patch (0 when it has none). */
export function patchLineCount(file: DiffFile): number {
  if (!file.patch) return 0;
  let count = 1;
  for (let at = file.patch.indexOf('\n'); at >= 0; at = file.patch.indexOf('\n', at + 1)) count++;
  return count;
}

/** The paths of the files that start open. */
export function initiallyOpen(files: readonly DiffFile[]): Set<string> {
  const open = new Set<string>();
  let shown = 0;
  for (const file of files) {
    const lines = patchLineCount(file);
    if (lines > maxOpenFileLines || shown + lines > openLinesBudget) continue;
    shown += lines;
    open.add(file.path);
  }
  return open;
}
