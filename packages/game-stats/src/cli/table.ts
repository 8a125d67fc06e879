/**
 * @module Plain-text tables for the terminal: a header, a rule, columns aligned (numbers right).
 */

interface Column<Row> {
  title: string;
  value: (row: Row) => string | number;
}

export function renderTable<Row>(rows: readonly Row[], columns: readonly Column<Row>[]): string {
  const cells = rows.map((row) => columns.map((column) => column.value(row)));
  const widths = columns.map((column, index) =>
    Math.max(column.title.length, ...cells.map((row) => String(row[index]).length)),
  );
  const line = (values: (string | number)[]) =>
    values
      .map((value, index) =>
        typeof value === 'number' ? String(value).padStart(widths[index]!) : value.padEnd(widths[index]!),
      )
      .join('  ')
      .trimEnd();
  return [
    line(columns.map((column) => column.title)),
    widths.map((width) => '-'.repeat(width)).join('  '),
    ...cells.map(line),
  ].join('\n');
}
