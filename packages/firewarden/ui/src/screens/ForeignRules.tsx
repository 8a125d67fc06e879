/**
 * The rules in force that other tools own (Docker, fail2ban, an admin's iptables line...), as the
 * agent reads them from the kernel: shown read-only, since firewarden never changes them.
 */
import { type ColumnDef, DataTable, EmptyState } from '@suite/web-ui/kit';
import type { ForeignRule } from '../types';

const columns: ColumnDef<ForeignRule>[] = [
  { accessorKey: 'owner', header: 'owner' },
  { accessorKey: 'family', header: 'family' },
  { accessorKey: 'table', header: 'table' },
  { accessorKey: 'chain', header: 'chain' },
  { accessorKey: 'rule', header: 'rule', cell: ({ row }) => <code>{row.original.rule}</code> },
];

export function ForeignRules({ rules, total }: { rules: ForeignRule[]; total: number }) {
  return (
    <DataTable
      caption={`${rules.length} of ${total} rules of other tools (read-only)`}
      columns={columns}
      rows={rules}
      rowId={(line) => `${line.family} ${line.table} ${line.chain} ${line.position ?? ''} ${line.rule}`}
      pageSize={50}
      empty={
        <EmptyState
          title={total === 0 ? 'No other tool has rules here.' : 'No rule of another tool matches.'}
        >
          <p>Docker, fail2ban, CrowdSec or hand-written iptables lines would be listed here, read-only.</p>
        </EmptyState>
      }
    />
  );
}
