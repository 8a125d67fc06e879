/**
 * A file's unified patch (`GET /tasks/{id}/diff`'s `patch`) as rows to show: unified (one line
 * each) or side by side (a hunk's removed and added lines paired up, the shorter side padded).
 */

/** `note`: git's `\ No newline at end of file`, about the line before it. */
type LineKind = 'add' | 'del' | 'context' | 'hunk' | 'note';

export interface DiffLine {
  kind: LineKind;
  text: string;
  /** The line's number in the old file (context and removed lines). */
  oldNumber?: number;
  /** The line's number in the new file (context and added lines). */
  newNumber?: number;
}

/** `@@ -12,3 +14,5 @@`: where a hunk starts on each side. */
const hunkHeader = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/;

/** The patch's lines from the first hunk on (git's `diff --git`/`index`/`---`/`+++` header dropped). */
export function patchLines(patch: string): DiffLine[] {
  const lines = patch.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const first = lines.findIndex((line) => line.startsWith('@@'));
  if (first < 0) return [];
  let oldNumber = 0;
  let newNumber = 0;
  return lines.slice(first).map((text) => {
    const kind = kindOf(text);
    if (kind === 'hunk') {
      const start = hunkHeader.exec(text);
      oldNumber = Number(start?.[1] ?? 0);
      newNumber = Number(start?.[2] ?? 0);
      return { kind, text };
    }
    if (kind === 'del') return { kind, text, oldNumber: oldNumber++ };
    if (kind === 'add') return { kind, text, newNumber: newNumber++ };
    if (kind === 'context') return { kind, text, oldNumber: oldNumber++, newNumber: newNumber++ };
    return { kind, text };
  });
}

/** A patch line's kind from its first character (unified diff format). */
function kindOf(line: string): LineKind {
  if (line.startsWith('@@')) return 'hunk';
  if (line.startsWith('+')) return 'add';
  if (line.startsWith('-')) return 'del';
  if (line.startsWith('\\')) return 'note';
  return 'context';
}

interface SideBySideRow<L extends DiffLine = DiffLine> {
  left?: L;
  right?: L;
}

export function sideBySide<L extends DiffLine>(lines: L[]): SideBySideRow<L>[] {
  const rows: SideBySideRow<L>[] = [];
  let removed: L[] = [];
  let added: L[] = [];
  const flush = () => {
    for (let at = 0; at < Math.max(removed.length, added.length); at++)
      rows.push({ left: removed[at], right: added[at] });
    removed = [];
    added = [];
  };
  for (const line of lines) {
    if (line.kind === 'del') removed.push(line);
    else if (line.kind === 'add') added.push(line);
    else {
      flush();
      rows.push({ left: line, right: line });
    }
  }
  flush();
  return rows;
}
