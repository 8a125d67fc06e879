/**
 * A captioned table on TanStack Table (headless: sorting, filtering and paging logic, our markup):
 * a sortable column's header is a button and the column says its order (`aria-sort`), an optional
 * search box filters every column, and long lists are paged. On a narrow screen the table scrolls
 * inside its own box, never the page.
 */
import {
  type ColumnDef,
  getCoreRowModel,
  getFilteredRowModel,
  getPaginationRowModel,
  getSortedRowModel,
  type SortingState,
  useReactTable,
} from '@tanstack/react-table';
import { ArrowDown, ArrowUp, ArrowUpDown, ChevronLeft, ChevronRight } from 'lucide-react';
import { type ReactNode, useId, useState } from 'react';

export type { ColumnDef } from '@tanstack/react-table';

/**
 * A header or cell renderer is called as a function, not mounted as a component (TanStack's
 * `flexRender` does the latter): a screen that builds its columns on each render would otherwise
 * remount every cell each time, losing a cell's state (a message, the focus). So a renderer
 * must not call hooks; it returns the elements of its cell.
 */
function render<Context>(template: unknown, context: Context): ReactNode {
  return typeof template === 'function'
    ? (template as (props: Context) => ReactNode)(context)
    : (template as ReactNode);
}

export interface DataTableProps<Row> {
  caption: string;
  // biome-ignore lint/suspicious/noExplicitAny: each column reads a value of its own type (TanStack's own signature)
  columns: ColumnDef<Row, any>[];
  rows: Row[];
  /** A stable key of a row (an id, a position). */
  rowId?: (row: Row, index: number) => string;
  /** Shows a search box over every column, labelled with this text. */
  searchLabel?: string;
  /** Rows per page; every row on one page when absent. */
  pageSize?: number;
  /** What to show instead of an empty body (an `EmptyState` saying what to do). */
  empty?: ReactNode;
}

export function DataTable<Row>(props: DataTableProps<Row>) {
  const [sorting, setSorting] = useState<SortingState>([]);
  const [search, setSearch] = useState('');
  const searchId = useId();
  const table = useReactTable({
    data: props.rows,
    columns: props.columns,
    state: { sorting, globalFilter: search },
    onSortingChange: setSorting,
    onGlobalFilterChange: setSearch,
    getRowId: props.rowId,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
    getFilteredRowModel: getFilteredRowModel(),
    ...(props.pageSize
      ? {
          getPaginationRowModel: getPaginationRowModel(),
          initialState: { pagination: { pageIndex: 0, pageSize: props.pageSize } },
        }
      : {}),
    autoResetPageIndex: true,
  });
  const rows = table.getRowModel().rows;
  const pages = table.getPageCount();

  return (
    <div className="kit-table">
      {props.searchLabel && (
        <div className="kit-table-tools">
          <label htmlFor={searchId}>{props.searchLabel}</label>
          <input
            id={searchId}
            type="search"
            className="kit-input"
            value={search}
            onChange={(event) => setSearch(event.target.value)}
          />
        </div>
      )}
      <div className="kit-table-scroll">
        <table>
          <caption>{props.caption}</caption>
          <thead>
            {table.getHeaderGroups().map((group) => (
              <tr key={group.id}>
                {group.headers.map((header) => {
                  const order = header.column.getIsSorted();
                  const title = render(header.column.columnDef.header, header.getContext());
                  return (
                    <th
                      key={header.id}
                      scope="col"
                      aria-sort={order === 'asc' ? 'ascending' : order === 'desc' ? 'descending' : undefined}
                    >
                      {header.column.getCanSort() ? (
                        <button
                          type="button"
                          className="kit-sort"
                          onClick={header.column.getToggleSortingHandler()}
                        >
                          {title}
                          {order === 'asc' ? (
                            <ArrowUp aria-hidden="true" size={14} />
                          ) : order === 'desc' ? (
                            <ArrowDown aria-hidden="true" size={14} />
                          ) : (
                            <ArrowUpDown aria-hidden="true" size={14} className="kit-sort-idle" />
                          )}
                        </button>
                      ) : (
                        title
                      )}
                    </th>
                  );
                })}
              </tr>
            ))}
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.id}>
                {row.getVisibleCells().map((cell) => (
                  <td key={cell.id}>{render(cell.column.columnDef.cell, cell.getContext())}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {rows.length === 0 && props.empty}
      {props.pageSize !== undefined && pages > 1 && (
        <nav className="kit-pager" aria-label={`Pages of ${props.caption}`}>
          <button
            type="button"
            className="kit-button kit-button-default"
            onClick={() => table.previousPage()}
            disabled={!table.getCanPreviousPage()}
          >
            <ChevronLeft aria-hidden="true" size={16} /> Previous
          </button>
          <span aria-live="polite">
            Page {table.getState().pagination.pageIndex + 1} of {pages}
          </span>
          <button
            type="button"
            className="kit-button kit-button-default"
            onClick={() => table.nextPage()}
            disabled={!table.getCanNextPage()}
          >
            Next <ChevronRight aria-hidden="true" size={16} />
          </button>
        </nav>
      )}
    </div>
  );
}
