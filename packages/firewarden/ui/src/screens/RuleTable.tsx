/** A table of rules (each value rendered as text), used by the rules list and the review. */
import type { ReactNode } from 'react';
import type { Rule } from '../types';

const columns: (keyof Rule)[] = [
  'direction',
  'action',
  'protocol',
  'destination_port',
  'source',
  'destination',
  'interface',
  'comment',
];

interface Row {
  rule: Rule;
  position?: number;
}

export function RuleTable(props: {
  caption: string;
  rows: Row[];
  extra?: (row: { position: number }) => ReactNode;
}) {
  return (
    <div className="table-wrap">
      <table>
        <caption>{props.caption}</caption>
        <thead>
          <tr>
            <th scope="col">#</th>
            {columns.map((column) => (
              <th scope="col" key={column}>
                {column.replace('_', ' ')}
              </th>
            ))}
            {props.extra && <th scope="col">Change</th>}
          </tr>
        </thead>
        <tbody>
          {props.rows.map((row, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: new rules have no identity but their place in the draft
            <tr key={`${row.position ?? 'new'}-${index}`}>
              <td>{row.position ?? 'new'}</td>
              {columns.map((column) => (
                <td key={column}>{row.rule[column] ?? ''}</td>
              ))}
              {props.extra && (
                <td>{row.position !== undefined && props.extra({ position: row.position })}</td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
