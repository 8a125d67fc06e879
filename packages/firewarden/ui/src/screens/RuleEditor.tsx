/**
 * A new rule, checked as it is typed by `POST /firewall/rules/validate` (the engine's own rules,
 * no copy in the browser): each error is shown at its field, the analysis (shadowed or redundant
 * rules...) as warnings. Templates fill the form for the common rules (SSH, web server, mail,
 * DNS, the address this session signed in from). A valid rule goes into the draft for review.
 */

import { navigate } from '@suite/web-ui';
import { Button, SelectField, TextField } from '@suite/web-ui/kit';
import { Globe, KeyRound, ListPlus, Mail, MapPin, Server, X } from 'lucide-react';
import { type FormEvent, type ReactNode, useEffect, useState } from 'react';
import { ApiFailure, describeError, get, post } from '../api';
import type { Conflict, Rule } from '../types';
import { ErrorMessage } from './Messages';
import { myAddressTemplate, type RuleTemplate, ruleTemplates } from './rule-templates';

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
const hints: Partial<Record<keyof Rule, string>> = {
  destination_port: '22, 80,443 or 1000-2000; empty for any',
  source: 'an address or a block such as 10.0.0.0/8; empty for any',
};
const templateIcons: Record<string, ReactNode> = {
  ssh: <KeyRound size={16} />,
  web: <Globe size={16} />,
  mail: <Mail size={16} />,
  dns: <Server size={16} />,
  'my-address': <MapPin size={16} />,
};

/** Empty optional fields are left out, so the engine applies its defaults. */
function ruleOf(form: Record<string, string>): Rule {
  return Object.fromEntries(Object.entries(form).filter(([, value]) => value !== '')) as unknown as Rule;
}

function formOf(rule: Rule): Record<string, string> {
  return Object.fromEntries(Object.entries(rule).map(([key, value]) => [key, String(value)]));
}

export function RuleEditor({ username, onAdd }: { username: string; onAdd: (rules: Rule[]) => void }) {
  const [form, setForm] = useState<Record<string, string>>({
    direction: 'in',
    action: 'allow',
    protocol: 'tcp',
  });
  const [template, setTemplate] = useState<RuleTemplate | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [warnings, setWarnings] = useState<Conflict[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const [checked, setChecked] = useState(false);
  const myAddress = useSignInAddress(username);
  const companions = template?.rules.slice(1) ?? [];

  // biome-ignore lint/correctness/useExhaustiveDependencies: companions change only with the template
  useEffect(() => {
    setChecked(false);
    const timer = setTimeout(async () => {
      try {
        const answer = await post<{ conflicts: Conflict[] }>('/firewall/rules/validate', {
          rules: [ruleOf(form), ...companions],
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
  }, [form, template]);

  const set = (field: string, value: string) => setForm({ ...form, [field]: value });
  const applyTemplate = (chosen: RuleTemplate) => {
    setTemplate(chosen);
    setForm(formOf(chosen.rules[0]!));
  };
  const valid = checked && Object.keys(errors).length === 0 && problem === null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!valid) return;
    onAdd([ruleOf(form), ...companions]);
    navigate('/rules');
  };
  const fieldProps = (name: keyof Rule) => ({
    id: `rule-${name}`,
    label: name.replace('_', ' '),
    value: form[name] ?? '',
    error: errors[name],
    onChange: (event: { target: { value: string } }) => set(name, event.target.value),
  });
  const templates = myAddress ? [...ruleTemplates, myAddressTemplate(myAddress)] : ruleTemplates;

  return (
    <section>
      <div className="screen-head">
        <h1>New rule</h1>
      </div>
      <fieldset className="templates">
        <legend>Start from a template</legend>
        {templates.map((entry) => (
          <Button
            key={entry.id}
            icon={templateIcons[entry.id]}
            aria-pressed={template?.id === entry.id}
            onClick={() => applyTemplate(entry)}
          >
            {entry.label}
          </Button>
        ))}
      </fieldset>
      {template && (
        <p className="meta" data-testid="template-summary">
          {template.summary}
          {companions.length > 0 && ` Adds ${companions.length + 1} rules to the draft.`}
        </p>
      )}
      <form onSubmit={submit} className="editor" noValidate>
        {(Object.keys(choices) as (keyof Rule)[]).map((name) => (
          <SelectField
            key={name}
            {...fieldProps(name)}
            options={choices[name]!.map((choice) => ({
              value: choice,
              label: choice === '' ? 'from the addresses' : choice,
            }))}
          />
        ))}
        {textFields.map((name) => (
          <TextField key={name} {...fieldProps(name)} hint={hints[name]} />
        ))}
        {errors.rule && <p className="error full">{errors.rule}</p>}
        <ErrorMessage text={problem} />
        {warnings.length > 0 && (
          <ul className="warnings" aria-label="Warnings">
            {warnings.map((warning) => (
              <li key={`${warning.code}-${warning.message}`}>{warning.message}</li>
            ))}
          </ul>
        )}
        <div className="kit-actions">
          <Button icon={<X size={16} />} onClick={() => navigate('/rules')}>
            Cancel
          </Button>
          <Button type="submit" variant="primary" icon={<ListPlus size={16} />} disabled={!valid}>
            Add to the draft
          </Button>
        </div>
      </form>
    </section>
  );
}

/**
 * The address the server saw this user sign in from (their newest successful `auth.login` in the
 * audit trail, which admins, the only ones who add rules, can read); null when unknown.
 */
function useSignInAddress(username: string): string | null {
  const [address, setAddress] = useState<string | null>(null);
  useEffect(() => {
    const query = new URLSearchParams({
      actor: username,
      action: 'auth.login',
      outcome: 'success',
      limit: '1',
    });
    get<{ entries: { client: string | null }[] }>(`/audit?${query.toString()}`).then(
      (answer) => setAddress(answer.entries[0]?.client ?? null),
      () => setAddress(null),
    );
  }, [username]);
  return address;
}
