/**
 * Syntax tokens for the lines of a diff, with the same Lezer parsers and `classHighlighter`
 * classes as the editor (no second highlighter). Each side of a patch is parsed as one text
 * (the old side: context and removed lines; the new side: context and added lines), so a string
 * or comment opened on one line colours the next ones; the hunks' gaps leave the parser to
 * recover, which Lezer does. Loaded lazily with the language packages.
 */
import type { LanguageSupport } from '@codemirror/language';
import { classHighlighter, highlightTree } from '@lezer/highlight';
import { languageLoader } from '../editor/languages.js';
import type { DiffLine } from './diff-rows.js';

type Parser = LanguageSupport['language']['parser'];

/** A piece of a line: its text and its token classes ('' for plain text). */
export interface Token {
  text: string;
  classes: string;
}

/** `lines` cut into tokens, parsed as one text with `parser`. */
function tokenize(lines: string[], parser: Parser): Token[][] {
  const text = lines.join('\n');
  const ranges: { from: number; to: number; classes: string }[] = [];
  highlightTree(parser.parse(text), classHighlighter, (from, to, classes) => {
    ranges.push({ from, to, classes });
  });
  const result: Token[][] = [];
  let start = 0;
  let next = 0; // the first range that may reach into the current line
  for (const line of lines) {
    const end = start + line.length;
    const tokens: Token[] = [];
    let at = start;
    while (next < ranges.length && ranges[next].to <= start) next++;
    for (let index = next; index < ranges.length && ranges[index].from < end; index++) {
      const from = Math.max(ranges[index].from, start);
      const to = Math.min(ranges[index].to, end);
      if (from > at) tokens.push({ text: text.slice(at, from), classes: '' });
      if (to > from) tokens.push({ text: text.slice(from, to), classes: ranges[index].classes });
      at = Math.max(at, to);
    }
    if (at < end) tokens.push({ text: text.slice(at, end), classes: '' });
    result.push(tokens);
    start = end + 1;
  }
  return result;
}

/**
 * The tokens of each line of a file's diff (without its `+`/`-`/space sign), in the order of
 * `lines`; hunk headers get none. Undefined when the file's language is not one the UI knows.
 */
export async function highlightDiff(
  path: string,
  lines: DiffLine[],
): Promise<(Token[] | undefined)[] | undefined> {
  const load = languageLoader(path);
  if (!load) return undefined;
  const { parser } = (await load()).language;
  const oldSide = lines.filter((line) => line.kind === 'context' || line.kind === 'del');
  const newSide = lines.filter((line) => line.kind === 'context' || line.kind === 'add');
  const oldTokens = tokenize(
    oldSide.map((line) => line.text.slice(1)),
    parser,
  );
  const newTokens = tokenize(
    newSide.map((line) => line.text.slice(1)),
    parser,
  );
  let oldAt = 0;
  let newAt = 0;
  return lines.map((line) => {
    if (line.kind === 'del') return oldTokens[oldAt++];
    if (line.kind === 'add') return newTokens[newAt++];
    if (line.kind === 'context') {
      oldAt++;
      return newTokens[newAt++];
    }
    return undefined;
  });
}
