/**
 * Settings: every leaf of `GET /settings` as a field (numbers, booleans, text), grouped by
 * section; admins save the changed leaves only with `PUT /settings`. Keys fixed by a
 * `FIREWARDEN_*` variable are shown read-only.
 */
import { Button, CheckboxField, Tabs, TextField } from '@suite/web-ui/kit';
import { Save } from 'lucide-react';
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
      <div className="screen-head">
        <h1>Settings</h1>
      </div>
      <ErrorMessage text={error} />
      {data && (
        <form onSubmit={save} className="settings">
          <Tabs
            label="Settings sections"
            tabs={Object.entries(data.settings).map(([section, values]) => ({
              id: section,
              label: section.replace('_', ' '),
              content: (
                <fieldset>
                  <legend>{section.replace('_', ' ')}</legend>
                  {Object.entries(values).map(([key, original]) => {
                    if (typeof original === 'object' && original !== null) return null;
                    const value = changes[section]?.[key] ?? (original as Leaf);
                    const readOnly = !isAdmin || data.locked.includes(`${section}.${key}`);
                    const label = key.replaceAll('_', ' ');
                    return typeof value === 'boolean' ? (
                      <CheckboxField
                        key={key}
                        label={label}
                        checked={value}
                        disabled={readOnly}
                        onChange={(event) => change(section, key, event.target.checked)}
                      />
                    ) : (
                      <TextField
                        key={key}
                        id={`setting-${section}-${key}`}
                        label={label}
                        type={typeof value === 'number' ? 'number' : 'text'}
                        value={String(value)}
                        readOnly={readOnly}
                        hint={
                          data.locked.includes(`${section}.${key}`)
                            ? 'set by a FIREWARDEN_* variable'
                            : undefined
                        }
                        onChange={(event) =>
                          change(
                            section,
                            key,
                            typeof original === 'number' ? Number(event.target.value) : event.target.value,
                          )
                        }
                      />
                    );
                  })}
                </fieldset>
              ),
            }))}
          />
          <StatusMessage text={message} />
          {isAdmin && (
            <div className="kit-actions">
              <Button type="submit" variant="primary" icon={<Save size={16} />}>
                Save settings
              </Button>
            </div>
          )}
        </form>
      )}
    </section>
  );
}
