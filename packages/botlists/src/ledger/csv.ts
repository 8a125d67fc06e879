/**
 * @module RFC 4180 CSV that spreadsheets cannot turn into formulas.
 */

/**
 * A cell starting with `=`, `+`, `-` or `@` (or a tab or carriage return, which some spreadsheets
 * skip before reading a formula) gets a leading `'` so it stays text (OWASP CSV injection).
 * A cell holding a comma, quote or line break is quoted, quotes doubled.
 */
function csvCell(value: string | number | boolean | null): string {
  let text = value === null ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Rows joined with CRLF, as RFC 4180 writes them, ending with a CRLF. */
export function toCsvText(rows: readonly (readonly (string | number | boolean | null)[])[]): string {
  return rows.map((row) => `${row.map(csvCell).join(',')}\r\n`).join('');
}
