/**
 * A new rule, checked as it is typed by `POST /firewall/rules/validate` (the engine's own rules,
 * no copy in the browser): each error is shown at its field, the analysis (shadowed or redundant
 * rules...) as warnings. A valid rule goes into the draft for review.
 */

import { navigate } from '@suite/web-ui';
import { type FormEvent, type ReactNode, useEffect, useState } from 'react';
import { ApiFailure, describeError, post } from '../api';
import type { Conflict, Rule } from '../types';
import { ErrorMessage } from './Messages';

const choices: Partial<Record<keyof Rule, string[]>> = {
  direction: ['in', 'out', 'forward'],
  action: ['allow', 'deny', 'reject', 'limit'],
  protocol: ['tcp', 'udp', 'icmp', 'any'],
  family: ['', 'ipv4', 'ipv6', 'both'],
};
const textFields: (keyof Rule)[] = [
  'destination_port',
  'source',
  'destination',
  'source_port',
  'interface',
  'comment',
];

/** Empty optional fields are left out, so the engine applies its defaults. */
function ruleOf(form: Record<string, string>): Rule {
  return Object.fromEntries(Object.entries(form).filter(([, value]) => value !== '')) as unknown as Rule;
}

export function RuleEditor({ onAdd }: { onAdd: (rule: Rule) => void }) {
  const [form, setForm] = useState<Record<string, string>>({
    direction: 'in',
    action: 'allow',
    protocol: 'tcp',
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [warnings, setWarnings] = useState<Conflict[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const [checked, setChecked] = useState(false);

  useEffect(() => {
    setChecked(false);
    const timer = setTimeout(async () => {
      try {
        const answer = await post<{ conflicts: Conflict[] }>('/firewall/rules/validate', {
          rules: [ruleOf(form)],
        });
        setErrors({});
        setWarnings(answer.conflicts);
        setProblem(null);
      } catch (failure) {
        if (failure instanceof ApiFailure && failure.code === 'FW_VALIDATION_FAILED') {
          // `rules.0.source` belongs to the field `source`.
          const byField: Record<string, string> = {};
          for (const error of failure.fieldErrors)
            byField[error.path.split('.')[2] ?? 'rule'] = error.message;
          setErrors(byField);
          setProblem(null);
        } else setProblem(describeError(failure));
        setWarnings([]);
      }
      setChecked(true);
    }, 250);
    return () => clearTimeout(timer);
  }, [form]);

  const set = (field: string, value: string) => setForm({ ...form, [field]: value });
  const valid = checked && Object.keys(errors).length === 0 && problem === null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!valid) return;
    onAdd(ruleOf(form));
    navigate('/rules');
  };

  const field = (name: keyof Rule, control: ReactNode) => (
    <div className={`field${errors[name] ? ' invalid' : ''}`} key={name}>
      <label htmlFor={`rule-${name}`}>{name.replace('_', ' ')}</label>
      {control}
      {errors[name] && (
        <p id={`rule-${name}-error`} className="error">
          {errors[name]}
        </p>
      )}
    </div>
  );
  const describedBy = (name: string) => (errors[name] ? `rule-${name}-error` : undefined);

  return (
    <section>
      <h1>New rule</h1>
      <form onSubmit={submit} className="editor" noValidate>
        {(Object.keys(choices) as (keyof Rule)[]).map((name) =>
          field(
            name,
            <select
              id={`rule-${name}`}
              value={form[name] ?? ''}
              aria-invalid={errors[name] ? true : undefined}
              aria-describedby={describedBy(name)}
              onChange={(event) => set(name, event.target.value)}
            >
              {choices[name]!.map((choice) => (
                <option key={choice} value={choice}>
                  {choice === '' ? 'from the addresses' : choice}
                </option>
              ))}
            </select>,
          ),
        )}
        {textFields.map((name) =>
          field(
            name,
            <input
              id={`rule-${name}`}
              value={form[name] ?? ''}
              aria-invalid={errors[name] ? true : undefined}
              aria-describedby={describedBy(name)}
              onChange={(event) => set(name, event.target.value)}
            />,
          ),
        )}
        {errors.rule && <p className="error">{errors.rule}</p>}
        <ErrorMessage text={problem} />
        {warnings.length > 0 && (
          <ul className="warnings" aria-label="Warnings">
            {warnings.map((warning) => (
              <li key={`${warning.code}-${warning.message}`}>{warning.message}</li>
            ))}
          </ul>
        )}
        <div className="actions">
          <button type="button" onClick={() => navigate('/rules')}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={!valid}>
            Add to the draft
          </button>
        </div>
      </form>
    </section>
  );
}
