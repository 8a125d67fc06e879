/** Unified or side by side: the radio pair above a diff (the review's and the git panel's). */
import type { DiffLayout } from './FileDiff.js';

export function LayoutSwitch({
  name,
  layout,
  onChange,
}: {
  /** The radio group's name, unique on the page. */
  name: string;
  layout: DiffLayout;
  onChange: (layout: DiffLayout) => void;
}) {
  return (
    <fieldset className="diff-layout">
      <legend className="visually-hidden">Diff layout</legend>
      {(['unified', 'split'] as const).map((value) => (
        <label key={value} className="inline-label">
          <input type="radio" name={name} checked={layout === value} onChange={() => onChange(value)} />
          {value === 'unified' ? 'Unified' : 'Side by side'}
        </label>
      ))}
    </fieldset>
  );
}
