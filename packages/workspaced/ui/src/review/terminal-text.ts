/**
 * A terminal's output (an ended attempt's `output_tail`: raw bytes as the agent wrote them) as
 * plain text to show in a `<pre>`: escape sequences (colours, cursor moves, titles) dropped,
 * CRLF as a line end, and a line redrawn after a bare CR (a spinner, a progress bar) shown as it
 * was last drawn. Simpler than a read-only xterm.js, and the text stays selectable and readable
 * by a screen reader.
 */

const esc = '\u001b';
const bel = '\u0007';
/** OSC (title, hyperlink) up to BEL or ST; CSI (colours, cursor); other two-byte escapes. */
const escapes = new RegExp(
  [
    `${esc}\\][^${bel}${esc}]*(?:${bel}|${esc}\\\\)?`,
    `${esc}\\[[0-?]*[ -/]*[@-~]`,
    `${esc}[()][0-9A-Za-z]`,
    `${esc}[@-Z\\\\-_]`,
  ].join('|'),
  'g',
);
/** What is left of the C0 controls besides tab and line end, and DEL. */
const controls = new RegExp(`[${String.fromCharCode(0)}-\b\v\f\u000e-\u001f\u007f]`, 'g');

export function terminalText(output: string): string {
  return output
    .replace(escapes, '')
    .replace(/\r+\n/g, '\n')
    .split('\n')
    .map((line) => {
      const redrawn = line.split('\r').filter((part) => part !== '');
      return (redrawn.at(-1) ?? '').replace(controls, '');
    })
    .join('\n');
}
