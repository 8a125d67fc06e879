/**
 * The rule list before and after an apply as a unified diff: every current rule in order, marked
 * removed (−) or kept, then the added ones (+) at the end, where the transaction appends them.
 * The sign is text too, so it does not rest on colour.
 */
import type { Rule } from '../types';

/** A rule in a line; what matches anything (`any`, both families) is left out, as in ufw's listing. */
function ruleLine(rule: Rule): string {
  const given = (value: string | undefined) => value !== undefined && value !== '' && value !== 'any';
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
