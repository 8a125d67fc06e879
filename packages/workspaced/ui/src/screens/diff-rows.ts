/**
 * A file's unified patch (`GET /tasks/{id}/diff`'s `patch`) as rows to show: unified (one line
 * each) or side by side (a hunk's removed and added lines paired up, the shorter side padded).
 */

export type LineKind = 'add' | 'del' | 'context' | 'hunk';

export interface DiffLine {
  kind: LineKind;
  text: string;
}

/** The patch's lines from the first hunk on (git's `diff --git`/`index`/`---`/`+++` header dropped). */
export function patchLines(patch: string): DiffLine[] {
  const lines = patch.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const first = lines.findIndex((line) => line.startsWith('@@'));
  if (first < 0) return [];
  return lines.slice(first).map((text) => ({
    kind: text.startsWith('@@')
      ? 'hunk'
      : text.startsWith('+')
        ? 'add'
        : text.startsWith('-')
          ? 'del'
          : 'context',
    text,
  }));
}

export interface SideBySideRow {
  left?: DiffLine;
  right?: DiffLine;
}

export function sideBySide(lines: DiffLine[]): SideBySideRow[] {
  const rows: SideBySideRow[] = [];
  let removed: DiffLine[] = [];
  let added: DiffLine[] = [];
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
