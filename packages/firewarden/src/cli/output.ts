/**
 * @module How CLI commands answer: `--json` prints one JSON document on stdout; otherwise aligned
 * text a person reads. Failures set a non-zero exit code either way.
 */
import type { Check } from '../diagnostics/check.js';

export interface Output {
  json: boolean;
}

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

export function printLines(lines: string[]): void {
  process.stdout.write(`${lines.join('\n')}\n`);
}

/** Columns padded to their widest cell, two spaces apart. */
export function table(header: string[], rows: string[][]): string[] {
  const widths = header.map((title, index) =>
    Math.max(title.length, ...rows.map((row) => (row[index] ?? '').length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, index) => (index === cells.length - 1 ? cell : cell.padEnd(widths[index]!)))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)];
}

export function checksTable(checks: readonly Check[]): string[] {
  return table(
    ['STATUS', 'CHECK', 'MESSAGE'],
    checks.map((check) => [check.status.toUpperCase(), check.name, check.message]),
  );
}

/** A failure the command reports (exit 1), as JSON under `--json` or as one line on stderr. */
export function reportFailure(output: Output, code: string, message: string, exitCode = 1): void {
  if (output.json) printJson({ ok: false, error: { code, message } });
  else process.stderr.write(`firewarden: ${message}\n`);
  process.exitCode = exitCode;
}
