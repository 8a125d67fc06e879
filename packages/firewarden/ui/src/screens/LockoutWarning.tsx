/**
 * The lockout risk the server answered (409 with its conflicts) and the box the user ticks to
 * send the change anyway: the rules review and the blocklist dialog ask the same way.
 */
import { CheckboxField } from '@suite/web-ui/kit';
import type { ReactNode } from 'react';
import type { Conflict } from '../types';

export function LockoutWarning({
  title,
  conflicts,
  acknowledged,
  onAcknowledge,
}: {
  /** The line above the reasons: a heading on a page, a sentence in a dialog. */
  title: ReactNode;
  conflicts: Conflict[];
  acknowledged: boolean;
  onAcknowledge: (acknowledged: boolean) => void;
}) {
  return (
    <div className="lockout" role="alert">
      {title}
      <ul>
        {conflicts.map((conflict) => (
          <li key={conflict.code}>{conflict.message}</li>
        ))}
      </ul>
      <CheckboxField
        label="I understand this change may cut my own access"
        checked={acknowledged}
        onChange={(event) => onAcknowledge(event.target.checked)}
      />
    </div>
  );
}
