/**
 * @module Terminal output as plain text, by one linear scan (no regular expression over output a
 * program controls): CSI (`ESC [ … final`), OSC (`ESC ] … BEL/ST`), charset (`ESC ( B`) and other
 * two-byte escapes removed. Agent detection reads it; the web UI shows an ended agent's output
 * with it (no Node import here).
 */

/** Drops escape sequences and every control character except those in `keep`. */
export function stripEscapes(text: string, keep = '\n'): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const char = text[i]!;
    if (char !== '\u001b') {
      if ((char >= ' ' && char !== '\u007f') || keep.includes(char)) out += char;
      i++;
      continue;
    }
    const kind = text[i + 1];
    i += 2;
    if (kind === '[') {
      while (i < text.length && !(text[i]! >= '@' && text[i]! <= '~')) i++;
      i++;
    } else if (kind === ']') {
      while (i < text.length && text[i] !== '\u0007' && !(text[i] === '\u001b' && text[i + 1] === '\\')) i++;
      i += text[i] === '\u0007' ? 1 : 2;
    } else if (kind === '(' || kind === ')') i++;
  }
  return out;
}

/**
 * Output as a reader sees it once it stopped moving: escapes gone, CRLF a line end, and a line
 * redrawn after a bare CR (a spinner, a progress bar) as it was last drawn.
 */
export function terminalText(output: string): string {
  return stripEscapes(output, '\n\r\t')
    .split('\n')
    .map(
      (line) =>
        line
          .split('\r')
          .filter((part) => part !== '')
          .at(-1) ?? '',
    )
    .join('\n');
}
