/**
 * One terminal: xterm.js on the terminal socket (`/api/v1/terminals/{id}/ws`). Output arrives as
 * binary frames; keys and sizes go back as `{"input"}` / `{"resize"}`. The fit addon sizes the
 * terminal to its box (which the user can resize). A dropped socket reconnects with backoff (not
 * once the session ended: 4401); the daemon then sends the scrollback first, so the screen is
 * reset before it to show nothing twice.
 */
import { FitAddon } from '@xterm/addon-fit';
import { Terminal as XTerm } from '@xterm/xterm';
import '@xterm/xterm/css/xterm.css';
import { useEffect, useRef, useState } from 'react';
import { finalCloseText } from '../socket-close.js';
import type { Terminal } from '../types.js';

const maxBackoffMs = 10_000;

/** Without `onTerminate` the terminal is only watched and typed into, never closed from here. */
export function TerminalView({ terminal, onTerminate }: { terminal: Terminal; onTerminate?: () => void }) {
  const box = useRef<HTMLDivElement>(null);
  const [state, setState] = useState('connecting');

  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const xterm = new XTerm({ convertEol: false, fontSize: 13, scrollback: 5000 });
    const fit = new FitAddon();
    xterm.loadAddon(fit);
    xterm.open(element);
    let socket: WebSocket | undefined;
    let stopped = false;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let backoffMs = 500;

    const send = (message: unknown) => {
      if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
    };
    const sendSize = () => send({ resize: { cols: xterm.cols, rows: xterm.rows } });
    const connect = () => {
      const scheme = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
      const current = new WebSocket(`${scheme}//${window.location.host}/api/v1/terminals/${terminal.id}/ws`);
      socket = current;
      current.binaryType = 'arraybuffer';
      current.onopen = () => {
        backoffMs = 500;
        xterm.reset();
        setState('connected');
        sendSize();
      };
      current.onmessage = (event) => {
        if (event.data instanceof ArrayBuffer) xterm.write(new Uint8Array(event.data));
        else {
          const error = (JSON.parse(String(event.data)) as { error?: { message?: string } }).error;
          if (error?.message) setState(`refused: ${error.message}`);
        }
      };
      current.onclose = (event) => {
        if (stopped) return;
        if (event.code === 1000) return setState('exited');
        const final = finalCloseText(event);
        if (final) return setState(final);
        setState('reconnecting');
        retry = setTimeout(connect, backoffMs);
        backoffMs = Math.min(backoffMs * 2, maxBackoffMs);
      };
    };
    const input = xterm.onData((data) => send({ input: data }));
    const observer = new ResizeObserver(() => {
      if (element.clientWidth === 0) return;
      fit.fit();
    });
    const resized = xterm.onResize(sendSize);
    observer.observe(element);
    fit.fit();
    connect();
    return () => {
      stopped = true;
      clearTimeout(retry);
      observer.disconnect();
      input.dispose();
      resized.dispose();
      socket?.close();
      xterm.dispose();
    };
  }, [terminal.id]);

  return (
    <section className="terminal" aria-label={`Terminal ${terminal.id}`}>
      <header>
        <span>
          #{terminal.id} {terminal.shell}
        </span>
        <span className="muted" data-testid="terminal-state">
          {state}
        </span>
        {onTerminate && (
          <button type="button" onClick={onTerminate}>
            Close
          </button>
        )}
      </header>
      <div className="terminal-box" ref={box} />
    </section>
  );
}
