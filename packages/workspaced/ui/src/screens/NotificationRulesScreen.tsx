/**
 * The signed-in user's notification rules: list, create, edit (PUT), enable/disable, delete and
 * "Send test" (`POST /notifications/test`). A webhook rule's signing secret is typed or
 * generated in the form, where the user copies it into the receiver; once saved it is never shown
 * again (the daemon never answers it in a list, and the form forgets it).
 */
import { useLoad } from '@suite/web-ui';
import { Badge, Skeleton } from '@suite/web-ui/kit';
import { type FormEvent, useState } from 'react';
import { api } from '../api.js';
import { useActions } from '../components/actions.js';
import { ErrorLine } from '../components/Notices.js';
import { PushDevice } from '../components/PushDevice.js';
import { ProjectField } from '../components/SelectField.js';
import { useEventStream } from '../event-stream.js';
import type { Project, User } from '../types.js';
import { type DeliveryReport, type NotificationRule, unlessDenied, when } from '../types-admin.js';

interface Draft {
  event: string;
  channel: 'browser' | 'webhook' | 'push';
  target: string;
  enabled: boolean;
  project: string;
  secret: string;
}

const emptyDraft: Draft = {
  event: 'attention.*',
  channel: 'browser',
  target: '',
  enabled: true,
  project: '',
  secret: '',
};

/** 32 random bytes as hex, from the browser's CSPRNG. */
function newSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

function reportText(report: DeliveryReport): string {
  if (report.channel === 'browser') return `rule ${report.rule_id}: sent to your browser stream`;
  const status = report.status === null ? '' : ` (HTTP ${report.status})`;
  const error = report.error ? `: ${report.error}` : '';
  return `rule ${report.rule_id}: ${report.outcome}${status} after ${report.attempts} attempt(s)${error}`;
}

interface Received {
  seq: number;
  event: string;
  summary: string;
  ts: string;
}

/**
 * The browser channel: while this screen is open it lists what arrives on the user's own event
 * stream (`user:<id>`, only they may subscribe); the shell's notifier shows each one as a browser
 * notification, on any screen.
 */
function useBrowserChannel(userId: string): Received[] {
  const [received, setReceived] = useState<Received[]>([]);
  useEventStream([`user:${userId}`], (frame) => {
    if (frame.type !== 'notification') return;
    const item = {
      seq: frame.seq,
      event: String(frame.data.event ?? ''),
      summary: String(frame.data.summary ?? ''),
      ts: String(frame.data.ts ?? ''),
    };
    setReceived((current) => [item, ...current].slice(0, 20));
  });
  return received;
}

export function NotificationRulesScreen({ me }: { me: User }) {
  const received = useBrowserChannel(me.id);
  const rules = useLoad(
    () => unlessDenied(() => api<{ rules: NotificationRule[] }>('GET', '/notifications/rules')),
    [],
  );
  const projects = useLoad(() => api<{ projects: Project[] }>('GET', '/projects'), []);
  const [editing, setEditing] = useState<number | null>(null);
  const [draft, setDraft] = useState<Draft>(emptyDraft);
  const [confirming, setConfirming] = useState<number>();
  const { error, run } = useActions(rules.reload);

  const projectName = (id: number | null) =>
    id === null
      ? 'every project'
      : `project ${projects.data?.projects.find((project) => project.id === id)?.name ?? id}`;
  const change = (patch: Partial<Draft>) => setDraft((current) => ({ ...current, ...patch }));
  // A webhook gets a fresh secret to copy; the user may type their own instead.
  const chooseChannel = (channel: Draft['channel']) =>
    change({ channel, secret: channel === 'webhook' && draft.secret === '' ? newSecret() : draft.secret });

  const save = (event: FormEvent) => {
    event.preventDefault();
    return run(async () => {
      const body = {
        event: draft.event,
        channel: draft.channel,
        target: draft.channel === 'webhook' ? draft.target : '',
        enabled: draft.enabled,
        project_id: draft.project === '' ? null : Number(draft.project),
        ...(draft.channel === 'webhook' && draft.secret !== '' ? { secret: draft.secret } : {}),
      };
      // The answer may carry the secret: it is dropped here, never kept or shown.
      const saved = await api<NotificationRule>(
        editing === null ? 'POST' : 'PUT',
        editing === null ? '/notifications/rules' : `/notifications/rules/${editing}`,
        body,
      );
      setEditing(null);
      setDraft(emptyDraft);
      return `Rule ${saved.id} saved.`;
    });
  };

  const edit = (rule: NotificationRule) => {
    setEditing(rule.id);
    setDraft({
      event: rule.event,
      channel: rule.channel,
      target: rule.target,
      enabled: rule.enabled,
      project: rule.project_id === null ? '' : String(rule.project_id),
      secret: '',
    });
  };

  const test = (rule: NotificationRule) =>
    run(async () => {
      const { results } = await api<{ results: DeliveryReport[] }>('POST', '/notifications/test', {
        rule_id: rule.id,
      });
      return `Test through ${results.map(reportText).join('; ')}`;
    });

  if (rules.data?.denied)
    return (
      <p role="alert" className="error">
        You cannot manage notification rules: {rules.data.denied}.
      </p>
    );
  return (
    <section aria-labelledby="rules-heading">
      <h2 id="rules-heading">Notification rules</h2>
      <p className="muted">
        Your rules, kept in memory by the daemon (a restart forgets them). A webhook receives a JSON POST
        signed with <code>X-Workspaced-Signature: sha256=…</code>.
      </p>
      <PushDevice />
      <ErrorLine message={error ?? rules.error} />
      {!rules.data && !rules.error && <Skeleton lines={3} label="Loading the rules" />}
      <ul className="list" aria-label="Notification rules">
        {rules.data?.value?.rules.map((rule) => (
          <li key={rule.id} className={rule.enabled ? undefined : 'muted'}>
            <span className="muted">#{rule.id}</span>
            <strong>{rule.event}</strong>
            <Badge>{rule.channel}</Badge>
            {rule.target !== '' && <span className="target">{rule.target}</span>}
            <span className="muted">
              {projectName(rule.project_id)}, {rule.enabled ? 'enabled' : 'disabled'}
              {rule.last_delivery &&
                `, last delivery ${rule.last_delivery.outcome} ${when(rule.last_delivery.at)}`}
            </span>
            <span className="row">
              <button type="button" onClick={() => edit(rule)} aria-label={`Edit rule ${rule.id}`}>
                Edit
              </button>
              <button
                type="button"
                aria-label={`${rule.enabled ? 'Disable' : 'Enable'} rule ${rule.id}`}
                onClick={() =>
                  run(async () => {
                    await api('PUT', `/notifications/rules/${rule.id}`, { enabled: !rule.enabled });
                    return `Rule ${rule.id} ${rule.enabled ? 'disabled' : 'enabled'}.`;
                  })
                }
              >
                {rule.enabled ? 'Disable' : 'Enable'}
              </button>
              <button
                type="button"
                aria-label={`Send test through rule ${rule.id}`}
                onClick={() => test(rule)}
              >
                Send test
              </button>
              {confirming === rule.id ? (
                <>
                  <button
                    type="button"
                    className="danger"
                    onClick={() =>
                      run(async () => {
                        await api('DELETE', `/notifications/rules/${rule.id}`);
                        setConfirming(undefined);
                        if (editing === rule.id) {
                          setEditing(null);
                          setDraft(emptyDraft);
                        }
                        return `Rule ${rule.id} deleted.`;
                      })
                    }
                  >
                    Yes, delete rule {rule.id}
                  </button>
                  <button type="button" onClick={() => setConfirming(undefined)}>
                    Keep it
                  </button>
                </>
              ) : (
                <button
                  type="button"
                  aria-label={`Delete rule ${rule.id}`}
                  onClick={() => setConfirming(rule.id)}
                >
                  Delete
                </button>
              )}
            </span>
          </li>
        ))}
        {rules.data?.value?.rules.length === 0 && <li className="muted">No rule yet.</li>}
      </ul>
      <h3>{editing === null ? 'New rule' : `Edit rule ${editing}`}</h3>
      <form onSubmit={save} className="inline-form" aria-label={editing === null ? 'New rule' : 'Edit rule'}>
        <label>
          Event
          <input
            value={draft.event}
            onChange={(e) => change({ event: e.target.value })}
            placeholder="attention.created, task.*, *"
            required
          />
        </label>
        <label>
          Channel
          <select value={draft.channel} onChange={(e) => chooseChannel(e.target.value as Draft['channel'])}>
            <option value="browser">browser</option>
            <option value="webhook">webhook</option>
            <option value="push">push</option>
          </select>
        </label>
        {draft.channel === 'webhook' && (
          <label>
            Webhook URL
            <input
              type="url"
              value={draft.target}
              onChange={(e) => change({ target: e.target.value })}
              placeholder="https://example.com/hook"
              required
            />
          </label>
        )}
        <ProjectField
          label="Project"
          value={draft.project}
          projects={projects.data?.projects ?? []}
          onChange={(project) => change({ project })}
          none="every project"
        />
        <label className="check">
          <input
            type="checkbox"
            checked={draft.enabled}
            onChange={(e) => change({ enabled: e.target.checked })}
          />
          Enabled
        </label>
        {draft.channel === 'webhook' && (
          <div className="secret-field">
            <label>
              {editing === null ? 'Signing secret' : 'New signing secret (empty: keep the current one)'}
              <input
                value={draft.secret}
                onChange={(e) => change({ secret: e.target.value })}
                minLength={16}
                maxLength={256}
                autoComplete="off"
                spellCheck={false}
                required={editing === null}
              />
            </label>
            <button type="button" onClick={() => change({ secret: newSecret() })}>
              Generate
            </button>
            <p className="muted">
              Copy it into your receiver now: once the rule is saved the secret is never shown again.
            </p>
          </div>
        )}
        <button type="submit">{editing === null ? 'Create rule' : 'Save rule'}</button>
        {editing !== null && (
          <button
            type="button"
            onClick={() => {
              setEditing(null);
              setDraft(emptyDraft);
            }}
          >
            Cancel edit
          </button>
        )}
      </form>
      <h3>Browser notifications</h3>
      <p className="muted">
        Browser rules deliver to your browser on every screen, as browser notifications once you enable them
        (top bar); this list shows what arrived while this page was open.
      </p>
      <ul className="list" aria-label="Received in this tab">
        {received.map((item) => (
          <li key={item.seq}>
            <Badge>{item.event}</Badge> {item.summary}
            <span className="muted">{when(item.ts)}</span>
          </li>
        ))}
        {received.length === 0 && <li className="muted">Nothing received since this page opened.</li>}
      </ul>
    </section>
  );
}
