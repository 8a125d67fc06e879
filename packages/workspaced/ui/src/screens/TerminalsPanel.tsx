/** The project's live terminals, several side by side (stacked on a phone), and a button for a new one. */
import { errorText, useLoad } from '@suite/web-ui';
import { lazy, Suspense, useState } from 'react';
import { api } from '../api.js';
import type { Terminal } from '../types.js';

// xterm.js is most of the bundle: loaded only when a terminal is shown.
const TerminalView = lazy(() =>
  import('./TerminalView.js').then((module) => ({ default: module.TerminalView })),
);

export function TerminalsPanel({ projectId }: { projectId: number }) {
  const terminals = useLoad(() => api<{ terminals: Terminal[] }>('GET', '/terminals'), [projectId]);
  const [error, setError] = useState<string>();
  const own = terminals.data?.terminals.filter((terminal) => terminal.project_id === projectId) ?? [];

  const create = async () => {
    setError(undefined);
    try {
      await api('POST', '/terminals', { project_id: projectId });
      terminals.reload();
    } catch (failure) {
      setError(errorText(failure));
    }
  };
  const terminate = async (id: number) => {
    try {
      await api('POST', `/terminals/${id}/terminate`);
    } catch (failure) {
      setError(errorText(failure));
    }
    terminals.reload();
  };

  return (
    <div>
      <button type="button" onClick={create}>
        New terminal
      </button>
      {(error ?? terminals.error) && <p className="error">{error ?? terminals.error}</p>}
      <Suspense fallback={<p className="loading">Loading the terminal…</p>}>
        <div className="terminals">
          {own.map((terminal) => (
            <TerminalView key={terminal.id} terminal={terminal} onTerminate={() => terminate(terminal.id)} />
          ))}
        </div>
      </Suspense>
    </div>
  );
}
