/**
 * One file of a diff, the same in the review and the git panel: a collapsible box (a `<details>`,
 * so its header opens and closes with Enter or Space) with status, path and +/- counts, and the
 * patch unified or side by side, each line with its old and new line numbers (drawn by CSS from
 * data attributes, so copying the code copies no numbers) and syntax-highlighted once the file's
 * language package has loaded. A closed box renders no lines: a 2,000-file diff costs 2,000
 * headers. Long lines scroll inside the box, never the page. Given `lineNotes` (the review), each
 * line number is a button that opens a note under its line (`line-anchor.ts`).
 */
import { Fragment, type KeyboardEvent, type ReactNode, useEffect, useMemo, useState } from 'react';
import type { DiffFile } from '../types.js';
import { type DiffLine, patchLines, sideBySide } from './diff-rows.js';
import type { Token } from './highlight-lines.js';
import { anchorOf, type LineAnchor, noteKeys, type Pane, segments } from './line-anchor.js';
import './diff.css';
import '../editor/syntax.css';

export type DiffLayout = 'unified' | 'split';

/** Past this many lines a file is shown without colours: parsing it would hold the page up. */
const maxHighlightedLines = 5_000;

export function FileDiff({
  file,
  layout,
  initiallyOpen = true,
  lineNotes,
}: {
  file: DiffFile;
  layout: DiffLayout;
  initiallyOpen?: boolean;
  /** Notes under lines and what a click on a line number does (the review's comments). */
  lineNotes?: LineNotes;
}) {
  const [open, setOpen] = useState(initiallyOpen);
  const note = file.binary
    ? 'Binary file, not shown'
    : file.large
      ? 'Large file, not shown'
      : file.truncated
        ? 'Not shown: the diff is too long'
        : undefined;
  const renamed = file.old_path && file.old_path !== file.path;
  return (
    <details
      className="diff-file"
      aria-label={file.path}
      open={open}
      onToggle={(event) => setOpen(event.currentTarget.open)}
    >
      <summary>
        <span className={`diff-status diff-status-${file.status}`}>{file.status}</span>
        <span className="diff-path">{renamed ? `${file.old_path} → ${file.path}` : file.path}</span>
        {file.additions !== null && <span className="diff-count-add">+{file.additions}</span>}
        {file.deletions !== null && <span className="diff-count-del">−{file.deletions}</span>}
      </summary>
      {open && (
        <>
          {note && <p className="muted">{note}</p>}
          {file.patch && <Patch path={file.path} patch={file.patch} layout={layout} lineNotes={lineNotes} />}
        </>
      )}
    </details>
  );
}

/**
 * Notes under lines (the review's comments): `notes` by anchor key (`anchorKey`), and what a
 * click on a line's number does. Without it the numbers are plain (the git panel).
 */
export interface LineNotes {
  notes: ReadonlyMap<string, ReactNode>;
  onLine: (anchor: LineAnchor) => void;
}

function Patch({
  path,
  patch,
  layout,
  lineNotes,
}: {
  path: string;
  patch: string;
  layout: DiffLayout;
  lineNotes?: LineNotes;
}) {
  const lines = useMemo(() => patchLines(patch), [patch]);
  const tokens = useTokens(path, lines);
  const notes = lineNotes?.notes;
  const shown = (keys: string[]) => (notes ? keys.filter((key) => notes.has(key)) : []);
  const noteBoxes = (keys: string[]) => keys.map((key) => <Fragment key={key}>{notes?.get(key)}</Fragment>);
  const numbered = (item: DiffLine | undefined, pane: Pane) =>
    item !== undefined && noteKeys(item, pane).length > 0;
  // The first numbered line (side by side: its first pane) is the file's tab stop.
  const line = (item: DiffLine | undefined, at: number, pane: Pane, tabStop: boolean) => (
    <Line
      // A patch's lines have no identity but their place.
      key={at}
      path={path}
      line={item}
      tokens={item && 'at' in item ? tokens?.[item.at as number] : tokens?.[at]}
      pane={pane}
      onLine={lineNotes?.onLine}
      tabStop={tabStop}
    />
  );
  if (layout === 'unified') {
    const first = lines.findIndex((item) => numbered(item, 'both'));
    return (
      <div className="diff-patch">
        {segments(lines.length, (row) => shown(noteKeys(lines[row], 'both'))).map((part) => (
          <Fragment key={part.from}>
            <pre className="git-diff" data-testid={part.from === 0 ? 'file-diff' : undefined}>
              <code>
                {lines
                  .slice(part.from, part.to)
                  .map((item, at) => line(item, part.from + at, 'both', part.from + at === first))}
              </code>
            </pre>
            {noteBoxes(part.notes)}
          </Fragment>
        ))}
      </div>
    );
  }
  const rows = sideBySide(lines.map((item, at) => ({ ...item, at })));
  const first = rows.findIndex((row) => numbered(row.left, 'old') || numbered(row.right, 'new'));
  const firstPane = first >= 0 && numbered(rows[first]?.left, 'old') ? 'left' : 'right';
  const after = (row: number) => [
    ...new Set([...shown(noteKeys(rows[row]?.left, 'old')), ...shown(noteKeys(rows[row]?.right, 'new'))]),
  ];
  return (
    <div className="diff-patch">
      {segments(rows.length, after).map((part) => (
        <Fragment key={part.from}>
          <div className="split-diff" data-testid={part.from === 0 ? 'file-diff' : undefined}>
            {(['left', 'right'] as const).map((side) => (
              <pre key={side} className="git-diff" data-side={side}>
                <code>
                  {rows
                    .slice(part.from, part.to)
                    .map((row, at) =>
                      line(
                        row[side],
                        part.from + at,
                        side === 'left' ? 'old' : 'new',
                        part.from + at === first && side === firstPane,
                      ),
                    )}
                </code>
              </pre>
            ))}
          </div>
          {noteBoxes(part.notes)}
        </Fragment>
      ))}
    </div>
  );
}

/**
 * Up and Down (and Home, End) on a line number move to the file's previous or next one: one tab
 * stop per file, not one per line.
 */
function moveBetweenNumbers(event: KeyboardEvent<HTMLButtonElement>) {
  const keys = ['ArrowUp', 'ArrowDown', 'Home', 'End'];
  const patch = event.currentTarget.closest('.diff-patch');
  if (!patch || !keys.includes(event.key)) return;
  const numbers = [...patch.querySelectorAll<HTMLButtonElement>('button.diff-gutter')];
  const at = numbers.indexOf(event.currentTarget);
  const next =
    event.key === 'Home'
      ? 0
      : event.key === 'End'
        ? numbers.length - 1
        : Math.min(numbers.length - 1, Math.max(0, at + (event.key === 'ArrowUp' ? -1 : 1)));
  event.preventDefault();
  numbers[next]?.focus();
}

/** The lines' tokens once the language has loaded; undefined before, or for an unknown language. */
function useTokens(path: string, lines: DiffLine[]): (Token[] | undefined)[] | undefined {
  const [tokens, setTokens] = useState<{ lines: DiffLine[]; tokens: (Token[] | undefined)[] }>();
  useEffect(() => {
    if (lines.length > maxHighlightedLines) return;
    let current = true;
    import('./highlight-lines.js')
      .then((module) => module.highlightDiff(path, lines))
      .then((result) => {
        if (current && result) setTokens({ lines, tokens: result });
      })
      // Without its language package the diff stays plain text.
      .catch(() => {});
    return () => {
      current = false;
    };
  }, [path, lines]);
  return tokens?.lines === lines ? tokens.tokens : undefined;
}

const numberWidth = 5;
const pad = (value: number | undefined) => String(value ?? '').padStart(numberWidth);

function Line({
  path,
  line,
  tokens,
  pane,
  onLine,
  tabStop,
}: {
  path: string;
  line?: DiffLine;
  tokens?: Token[];
  pane: Pane;
  onLine?: (anchor: LineAnchor) => void;
  /** The file's one line number reached with Tab; the arrow keys lead to the others. */
  tabStop: boolean;
}) {
  if (!line) return <span className="diff-line diff-empty"> </span>;
  const gutter =
    line.kind === 'hunk' || line.kind === 'note'
      ? ''
      : pane === 'both'
        ? `${pad(line.oldNumber)} ${pad(line.newNumber)}`
        : pad(pane === 'old' ? line.oldNumber : line.newNumber);
  const anchor = onLine && gutter !== '' ? anchorOf(line, pane) : undefined;
  const numbers = pane === 'both' ? 'both' : pane;
  return (
    <span
      className={`diff-line diff-${line.kind}${anchor ? ' diff-line-notable' : ''}`}
      data-gutter={anchor ? undefined : gutter}
      data-numbers={numbers}
    >
      {anchor && onLine && (
        // The numbers are drawn from data-gutter by CSS: a copied line carries none.
        <button
          type="button"
          className="diff-gutter"
          data-gutter={gutter}
          data-numbers={numbers}
          tabIndex={tabStop ? 0 : -1}
          aria-label={`Comment on ${path} line ${anchor.line} (${anchor.side} side)`}
          onClick={() => onLine(anchor)}
          onKeyDown={moveBetweenNumbers}
        />
      )}
      {tokens ? (
        <>
          {line.text[0]}
          {tokens.map((token, at) =>
            token.classes ? (
              // biome-ignore lint/suspicious/noArrayIndexKey: tokens of a line have no identity but their place
              <span key={at} className={token.classes}>
                {token.text}
              </span>
            ) : (
              token.text
            ),
          )}
        </>
      ) : (
        line.text
      )}
    </span>
  );
}
