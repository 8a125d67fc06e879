/**
 * Installed extensions, their grants, and their widgets. A widget's data comes from the widget
 * data route (the server reads the declared source), is fetched again every `refresh_seconds`,
 * and is rendered as text, a number or a table only: nothing from the data is ever HTML.
 */
import { EmptyState } from '@suite/web-ui/kit';
import { Puzzle } from 'lucide-react';
import { useEffect, useState } from 'react';
import { describeError, get } from '../api';
import { useLoad } from '../use-load';
import { ErrorMessage } from './Messages';

interface Widget {
  id: string;
  title: string;
  kind: 'metric' | 'gauge' | 'table' | 'status';
  size: 'small' | 'medium' | 'wide';
  refresh_seconds: number;
}

interface Extension {
  id: string;
  name: string;
  version: string;
  author: string;
  capabilities: string[];
  grants: { capability: string }[];
  widgets: Widget[];
}

export function Extensions() {
  const { data, error } = useLoad(() => get<{ extensions: Extension[] }>('/extensions'));
  return (
    <section>
      <div className="screen-head">
        <h1>Extensions</h1>
      </div>
      <ErrorMessage text={error} />
      {data?.extensions.length === 0 && (
        <EmptyState icon={<Puzzle size={28} />} title="No extension is installed.">
          <p>
            Install one on the host with <code>firewarden extension install &lt;folder&gt;</code>; its widgets
            then show here.
          </p>
        </EmptyState>
      )}
      {data?.extensions.map((extension) => (
        <article key={extension.id} className="extension kit-card">
          <h2>
            {extension.name} {extension.version}
          </h2>
          <p className="meta">
            {extension.id} by {extension.author}. Granted:{' '}
            {extension.grants.map((grant) => grant.capability).join(', ') || 'nothing'} (of{' '}
            {extension.capabilities.join(', ') || 'none requested'})
          </p>
          <div className="widgets">
            {extension.widgets.map((widget) => (
              <WidgetView key={widget.id} extensionId={extension.id} widget={widget} />
            ))}
          </div>
        </article>
      ))}
    </section>
  );
}

function WidgetView({ extensionId, widget }: { extensionId: string; widget: Widget }) {
  const [value, setValue] = useState<unknown>(undefined);
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    let stopped = false;
    const load = async () => {
      try {
        const answer = await get<{ data: unknown }>(
          `/extensions/${encodeURIComponent(extensionId)}/widgets/${encodeURIComponent(widget.id)}/data`,
        );
        if (!stopped) {
          setValue(answer.data);
          setProblem(null);
        }
      } catch (failure) {
        if (!stopped) setProblem(describeError(failure));
      }
    };
    void load();
    const timer = setInterval(load, Math.max(1, widget.refresh_seconds) * 1000);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [extensionId, widget.id, widget.refresh_seconds]);

  return (
    <figure className={`widget size-${widget.size}`}>
      <figcaption>{widget.title}</figcaption>
      {problem ? <p className="error">{problem}</p> : <WidgetValue kind={widget.kind} value={value} />}
    </figure>
  );
}

/** `{value}` shows its value; a table takes an array of objects (or `{rows: [...]}`). */
function WidgetValue({ kind, value }: { kind: Widget['kind']; value: unknown }) {
  if (value === undefined) return <p className="meta">Loading…</p>;
  const inner = isRecord(value) && 'value' in value ? value.value : value;
  if (kind === 'table') {
    const rows = Array.isArray(inner)
      ? inner
      : isRecord(inner) && Array.isArray(inner.rows)
        ? inner.rows
        : [];
    const objects = rows.filter(isRecord);
    const columns = [...new Set(objects.flatMap((row) => Object.keys(row)))];
    return (
      <div className="table-wrap">
        <table>
          <thead>
            <tr>
              {columns.map((column) => (
                <th scope="col" key={column}>
                  {column}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {objects.map((row, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity of their own
              <tr key={index}>
                {columns.map((column) => (
                  <td key={column}>{asText(row[column])}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    );
  }
  return <p className={typeof inner === 'number' ? 'number' : 'text'}>{asText(inner)}</p>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Anything as plain text (React escapes it): numbers and strings as they are, the rest as JSON. */
function asText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
    return String(value);
  return JSON.stringify(value);
}
