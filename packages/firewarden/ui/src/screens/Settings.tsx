/**
 * Settings: every leaf of `GET /settings` as a field (numbers, booleans, text), grouped by
 * section; admins save the changed leaves only with `PUT /settings`. Keys fixed by a
 * `FIREWARDEN_*` variable are shown read-only.
 */
import { type FormEvent, useState } from 'react';
import { api, describeError, get } from '../api';
import { useLoad } from '../use-load';
import { ErrorMessage, StatusMessage } from './Messages';

type Leaf = string | number | boolean;
type Sections = Record<string, Record<string, unknown>>;

export function Settings({ isAdmin }: { isAdmin: boolean }) {
  const { data, error, reload } = useLoad(() => get<{ settings: Sections; locked: string[] }>('/settings'));
  const [changes, setChanges] = useState<Record<string, Record<string, Leaf>>>({});
  const [message, setMessage] = useState<string | null>(null);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    try {
      const answer = await api<{ changed: string[] }>('PUT', '/settings', changes);
      setMessage(answer.changed.length > 0 ? `Saved: ${answer.changed.join(', ')}` : 'Nothing changed.');
      setChanges({});
    } catch (failure) {
      setMessage(describeError(failure));
    }
    await reload();
  };
  const change = (section: string, key: string, value: Leaf) =>
    setChanges({ ...changes, [section]: { ...changes[section], [key]: value } });

  return (
    <section>
      <h1>Settings</h1>
      <ErrorMessage text={error} />
      {data && (
        <form onSubmit={save} className="editor">
          {Object.entries(data.settings).map(([section, values]) => (
            <fieldset key={section}>
              <legend>{section.replace('_', ' ')}</legend>
              {Object.entries(values).map(([key, original]) => {
                if (typeof original === 'object' && original !== null) return null;
                const id = `setting-${section}-${key}`;
                const value = changes[section]?.[key] ?? (original as Leaf);
                const readOnly = !isAdmin || data.locked.includes(`${section}.${key}`);
                return typeof value === 'boolean' ? (
                  <label className="check" key={key}>
                    <input
                      type="checkbox"
                      checked={value}
                      disabled={readOnly}
                      onChange={(event) => change(section, key, event.target.checked)}
                    />
                    {key.replaceAll('_', ' ')}
                  </label>
                ) : (
                  <div className="field" key={key}>
                    <label htmlFor={id}>{key.replaceAll('_', ' ')}</label>
                    <input
                      id={id}
                      type={typeof value === 'number' ? 'number' : 'text'}
                      value={String(value)}
                      readOnly={readOnly}
                      onChange={(event) =>
                        change(
                          section,
                          key,
                          typeof original === 'number' ? Number(event.target.value) : event.target.value,
                        )
                      }
                    />
                  </div>
                );
              })}
            </fieldset>
          ))}
          <StatusMessage text={message} />
          {isAdmin && <button type="submit">Save settings</button>}
        </form>
      )}
    </section>
  );
}
