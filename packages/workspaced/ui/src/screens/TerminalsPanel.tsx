/** The project's live terminals, several side by side (stacked on a phone), and a button for a new one. */
import { errorText, useLoad } from '@suite/web-ui';
import { Button, EmptyState, Notice, Skeleton } from '@suite/web-ui/kit';
import { SquareTerminal } from 'lucide-react';
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
      <Button variant="primary" icon={<SquareTerminal size={16} />} onClick={create}>
        New terminal
      </Button>
      <Notice tone="error" text={error ?? terminals.error} />
      {terminals.data && own.length === 0 && (
        <EmptyState title="No terminal open in this project">
          <p>"New terminal" starts a shell in the project's folder; it keeps running when you leave.</p>
        </EmptyState>
      )}
      <Suspense fallback={<Skeleton lines={3} label="Loading the terminal" />}>
        <div className="terminals">
          {own.map((terminal) => (
            <TerminalView key={terminal.id} terminal={terminal} onTerminate={() => terminate(terminal.id)} />
          ))}
        </div>
      </Suspense>
    </div>
  );
}
