/**
 * Rule diffs. The rule list before and after an apply as a unified diff: every current rule in
 * order, marked removed (−) or kept, then the added ones (+) at the end, where the transaction
 * appends them. And two lists compared side by side (a restore point and the rules now). The
 * change is said in text too, so it does not rest on colour.
 */
import type { Rule } from '../types';
import type { AlignedRow, Placed } from './rule-alignment';

/** A rule in a line; what matches anything (`any`, both families) is left out, as in ufw's listing. */
export function ruleLine(rule: Rule): string {
  // The agent's answers may say `null` for a field left out.
  const given = (value: string | null | undefined) =>
    typeof value === 'string' && value !== '' && value !== 'any';
  const parts = [rule.direction, rule.action, rule.protocol];
  if (given(rule.destination_port)) parts.push(`port ${rule.destination_port}`);
  if (given(rule.source)) parts.push(`from ${rule.source}`);
  if (given(rule.source_port)) parts.push(`source port ${rule.source_port}`);
  if (given(rule.destination)) parts.push(`to ${rule.destination}`);
  if (given(rule.interface)) parts.push(`on ${rule.interface}`);
  if (given(rule.family) && rule.family !== 'both') parts.push(`${rule.family} only`);
  if (given(rule.comment)) parts.push(`# ${rule.comment}`);
  return parts.join(' ');
}

export function RuleDiff(props: { current: Rule[]; removed: Set<number>; added: { rule: Rule }[] }) {
  return (
    <ol className="diff" aria-label="Rule list after the apply">
      {props.current.map((rule, index) => {
        const position = index + 1;
        const gone = props.removed.has(position);
        return (
          <li key={position} className={gone ? 'removed' : 'kept'}>
            <span className="sign" aria-hidden="true">
              {gone ? '−' : ' '}
            </span>
            <span className="kit-visually-hidden">{gone ? 'removed: ' : 'kept: '}</span>
            <span>
              {position}. {ruleLine(rule)}
            </span>
          </li>
        );
      })}
      {props.added.map(({ rule }, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: new rules have no identity but their place in the draft
        <li key={`added-${index}`} className="added">
          <span className="sign" aria-hidden="true">
            +
          </span>
          <span className="kit-visually-hidden">added: </span>
          <span>new. {ruleLine(rule)}</span>
        </li>
      ))}
    </ol>
  );
}

const kindSign: Record<AlignedRow['kind'], string> = { same: ' ', changed: '~', removed: '−', added: '+' };

/**
 * Two rule lists side by side, rule by rule (`alignRules`): a row per rule with the word of its
 * change (added, removed, changed, same) as text, the rule before and after with its position.
 */
export function RuleComparisonTable(props: {
  caption: string;
  before: string;
  after: string;
  rows: AlignedRow[];
}) {
  const cell = (placed: Placed | undefined) =>
    placed ? (
      <>
        {placed.position}. {ruleLine(placed.rule)}
      </>
    ) : (
      <span className="kit-visually-hidden">none</span>
    );
  return (
    <div className="kit-table">
      <div className="kit-table-scroll">
        <table className="side-by-side">
          <caption>{props.caption}</caption>
          <thead>
            <tr>
              <th scope="col">Change</th>
              <th scope="col">{props.before}</th>
              <th scope="col">{props.after}</th>
            </tr>
          </thead>
          <tbody>
            {props.rows.map((row, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a row is its place in the alignment
              <tr key={index} className={row.kind}>
                <th scope="row">
                  <span className="sign" aria-hidden="true">
                    {kindSign[row.kind]}
                  </span>{' '}
                  {row.kind}
                </th>
                <td>{cell('before' in row ? row.before : undefined)}</td>
                <td>{cell('after' in row ? row.after : undefined)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
