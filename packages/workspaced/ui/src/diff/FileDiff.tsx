/**
 * One file of a diff, the same in the review and the git panel: a collapsible box (a `<details>`,
 * so its header opens and closes with Enter or Space) with status, path and +/- counts, and the
 * patch unified or side by side, each line with its old and new line numbers (drawn by CSS from
 * data attributes, so copying the code copies no numbers) and syntax-highlighted once the file's
 * language package has loaded. A closed box renders no lines: a 2,000-file diff costs 2,000
 * headers. Long lines scroll inside the box, never the page.
 */
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import type { DiffFile } from '../types.js';
import { type DiffLine, patchLines, sideBySide } from './diff-rows.js';
import type { Token } from './highlight-lines.js';
import './diff.css';
import '../editor/syntax.css';

export type DiffLayout = 'unified' | 'split';

/** Past this many lines a file is shown without colours: parsing it would hold the page up. */
const maxHighlightedLines = 5_000;

export function FileDiff({
  file,
  layout,
  initiallyOpen = true,
  children,
}: {
  file: DiffFile;
  layout: DiffLayout;
  initiallyOpen?: boolean;
  /** Shown under the patch while the box is open (the review's comment box). */
  children?: ReactNode;
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
          {file.patch && <Patch path={file.path} patch={file.patch} layout={layout} />}
          {children}
        </>
      )}
    </details>
  );
}

function Patch({ path, patch, layout }: { path: string; patch: string; layout: DiffLayout }) {
  const lines = useMemo(() => patchLines(patch), [patch]);
  const tokens = useTokens(path, lines);
  if (layout === 'unified')
    return (
      <pre className="git-diff" data-testid="file-diff">
        <code>
          {lines.map((line, at) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a patch's lines have no identity but their place
            <Line key={at} line={line} tokens={tokens?.[at]} numbers="both" />
          ))}
        </code>
      </pre>
    );
  const rows = sideBySide(lines.map((line, at) => ({ ...line, at })));
  return (
    <div className="split-diff" data-testid="file-diff">
      {(['left', 'right'] as const).map((side) => (
        <pre key={side} className="git-diff" data-side={side}>
          <code>
            {rows.map((row, at) => {
              const line = row[side];
              return (
                <Line
                  // biome-ignore lint/suspicious/noArrayIndexKey: rows of a patch have no identity but their place
                  key={at}
                  line={line}
                  tokens={line ? tokens?.[line.at] : undefined}
                  numbers={side === 'left' ? 'old' : 'new'}
                />
              );
            })}
          </code>
        </pre>
      ))}
    </div>
  );
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
  line,
  tokens,
  numbers,
}: {
  line?: DiffLine;
  tokens?: Token[];
  numbers: 'both' | 'old' | 'new';
}) {
  if (!line) return <span className="diff-line diff-empty"> </span>;
  const gutter =
    line.kind === 'hunk' || line.kind === 'note'
      ? ''
      : numbers === 'both'
        ? `${pad(line.oldNumber)} ${pad(line.newNumber)}`
        : pad(numbers === 'old' ? line.oldNumber : line.newNumber);
  return (
    <span className={`diff-line diff-${line.kind}`} data-gutter={gutter} data-numbers={numbers}>
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
