/** A captioned table with column headers that scrolls inside its own box on a narrow screen. */
import type { ReactNode } from 'react';

export function DataTable(props: { caption: string; headers: string[]; children: ReactNode }) {
  return (
    <div className="table-wrap">
      <table>
        <caption>{props.caption}</caption>
        <thead>
          <tr>
            {props.headers.map((header) => (
              <th scope="col" key={header}>
                {header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{props.children}</tbody>
      </table>
    </div>
  );
}
