/** A table of rules (each value rendered as text, sortable by column), used by the rules list and the review. */
import { Link } from '@suite/web-ui';
import { Badge, type ColumnDef, DataTable, type Tone } from '@suite/web-ui/kit';
import type { ReactNode } from 'react';
import type { Rule } from '../types';

const textColumns: (keyof Rule)[] = [
  'protocol',
  'destination_port',
  'source',
  'destination',
  'interface',
  'comment',
];

const actionTone: Record<string, Tone> = { allow: 'ok', deny: 'danger', reject: 'danger', limit: 'warn' };

interface Row {
  rule: Rule;
  position?: number;
}

export function RuleTable(props: {
  caption: string;
  rows: Row[];
  extra?: (row: { position: number }) => ReactNode;
  empty?: ReactNode;
}) {
  const { extra } = props;
  const columns: ColumnDef<Row>[] = [
    { id: 'position', header: '#', accessorFn: (row) => row.position ?? 'new' },
    { id: 'direction', header: 'direction', accessorFn: (row) => row.rule.direction },
    {
      id: 'action',
      header: 'action',
      accessorFn: (row) => row.rule.action,
      cell: ({ row }) => (
        <Badge tone={actionTone[row.original.rule.action] ?? 'neutral'}>{row.original.rule.action}</Badge>
      ),
    },
    ...textColumns.map(
      (column): ColumnDef<Row> => ({
        id: column,
        header: column.replace('_', ' '),
        accessorFn: (row) => row.rule[column] ?? '',
        // A source naming a blocklist (`@name`) links to that list's page.
        ...(column === 'source' && {
          cell: ({ row }) => {
            const source = row.original.rule.source ?? '';
            return source.startsWith('@') ? (
              <Link to={`/blocklists/${source.slice(1)}`}>{source}</Link>
            ) : (
              source
            );
          },
        }),
      }),
    ),
    ...(extra
      ? [
          {
            id: 'change',
            header: 'Change',
            enableSorting: false,
            cell: ({ row }) =>
              row.original.position !== undefined ? extra({ position: row.original.position }) : null,
          } satisfies ColumnDef<Row>,
        ]
      : []),
  ];
  return (
    <DataTable
      caption={props.caption}
      columns={columns}
      rows={props.rows}
      // New rules have no identity but their place in the draft.
      rowId={(row, index) => `${row.position ?? 'new'}-${index}`}
      pageSize={50}
      empty={props.empty}
    />
  );
}
