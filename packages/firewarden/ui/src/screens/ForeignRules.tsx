/**
 * The rules in force that other tools own (Docker, fail2ban, an admin's iptables line...), as the
 * agent reads them from the kernel: shown read-only, since firewarden never changes them.
 */
import type { ForeignRule } from '../types';
import { DataTable } from './DataTable';

export function ForeignRules({ rules, total }: { rules: ForeignRule[]; total: number }) {
  return (
    <DataTable
      caption={`${rules.length} of ${total} rules of other tools (read-only)`}
      headers={['owner', 'family', 'table', 'chain', 'rule']}
    >
      {rules.map((line) => (
        <tr key={`${line.family} ${line.table} ${line.chain} ${line.position ?? ''} ${line.rule}`}>
          <td>{line.owner}</td>
          <td>{line.family}</td>
          <td>{line.table}</td>
          <td>{line.chain}</td>
          <td>
            <code>{line.rule}</code>
          </td>
        </tr>
      ))}
    </DataTable>
  );
}
