/**
 * Where a note (a review comment) hangs in a diff: a line number on one side of the patch. In
 * the unified layout a removed line is on the old side and an added or unchanged line on the new
 * side; side by side, the pane says which. A note is shown under its line in either layout, so
 * an unchanged line answers to both its numbers.
 */
import type { DiffLine } from './diff-rows.js';

type Side = 'old' | 'new';

export interface LineAnchor {
  side: Side;
  line: number;
  /** The line's text without its `+`/`-`/space sign. */
  text: string;
}

/** The pane a line is drawn in: `both` is the unified layout's single column. */
export type Pane = 'both' | 'old' | 'new';

export const anchorKey = (side: Side, line: number) => `${side}:${line}`;

/** The anchor a click on the line's number makes, if the line has a number on that pane. */
export function anchorOf(line: DiffLine, pane: Pane): LineAnchor | undefined {
  const side: Side = pane === 'both' ? (line.kind === 'del' ? 'old' : 'new') : pane;
  const number = side === 'old' ? line.oldNumber : line.newNumber;
  return number === undefined ? undefined : { side, line: number, text: line.text.slice(1) };
}

/** The keys of the notes that belong under the line in `pane`. */
export function noteKeys(line: DiffLine | undefined, pane: Pane): string[] {
  if (!line) return [];
  const keys: string[] = [];
  if (pane !== 'new' && line.oldNumber !== undefined) keys.push(anchorKey('old', line.oldNumber));
  if (pane !== 'old' && line.newNumber !== undefined) keys.push(anchorKey('new', line.newNumber));
  return keys;
}

/**
 * The rows cut after each row that has notes, so the notes show between two boxes of lines
 * (full width, out of the lines' sideways scroll, and side by side without pushing one pane's
 * rows away from the other's).
 */
export function segments(count: number, notesAfter: (row: number) => string[]) {
  const result: { from: number; to: number; notes: string[] }[] = [];
  let from = 0;
  for (let row = 0; row < count; row++) {
    const notes = notesAfter(row);
    if (notes.length === 0 && row < count - 1) continue;
    result.push({ from, to: row + 1, notes });
    from = row + 1;
  }
  return result;
}
