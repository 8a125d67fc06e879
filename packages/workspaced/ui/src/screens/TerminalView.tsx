/**
 * One terminal: xterm.js on the terminal socket (`/api/v1/terminals/{id}/ws`). Output arrives as
 * binary frames; keys and sizes go back as `{"input"}` / `{"resize"}`. The fit addon sizes the
 * terminal to its box (which the user can resize, as the window). A dropped socket reconnects with
 * backoff (0.5 s doubling to 10 s; not once the session ended: 4401), counting down in the header
 * with a button to try at once; the daemon then sends the scrollback first, so the screen is
 * reset before it to show nothing twice. The header's badge always says where the socket is:
 * connecting, connected, reconnecting in N s, ended (the shell exited) or refused. xterm.js opens
 * with the page's style nonce (`style-nonce.ts`): the daemon's CSP admits no other inline style.
 */
import { Badge, type Tone } from '@suite/web-ui/kit';
import { FitAddon } from '@xterm/addon-fit';
import { Terminal as XTerm } from '@xterm/xterm';
import '@xterm/xterm/css/xterm.css';
import { useEffect, useRef, useState } from 'react';
import { finalCloseText } from '../socket-close.js';
import { withStyleNonce } from '../style-nonce.js';
import type { Terminal } from '../types.js';

const maxBackoffMs = 10_000;

interface Connection {
  tone: Tone;
  text: string;
}

/** Without `onTerminate` the terminal is only watched and typed into, never closed from here. */
export function TerminalView({ terminal, onTerminate }: { terminal: Terminal; onTerminate?: () => void }) {
  const box = useRef<HTMLDivElement>(null);
  const [connection, setConnection] = useState<Connection>({ tone: 'info', text: 'connecting' });
  const [retryNow, setRetryNow] = useState<() => void>();

  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const xterm = new XTerm({ convertEol: false, fontSize: 13, scrollback: 5000 });
    const fit = new FitAddon();
    xterm.loadAddon(fit);
    withStyleNonce(() => xterm.open(element));
    let socket: WebSocket | undefined;
    let stopped = false;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let countdown: ReturnType<typeof setInterval> | undefined;
    let backoffMs = 500;
    const setState = (tone: Tone, text: string) => setConnection({ tone, text });
    const stopWaiting = () => {
      clearTimeout(retry);
      clearInterval(countdown);
      setRetryNow(undefined);
    };
    const reconnectLater = () => {
      const due = Date.now() + backoffMs;
      const showCountdown = () =>
        setState('warn', `reconnecting in ${Math.max(1, Math.ceil((due - Date.now()) / 1000))} s`);
      showCountdown();
      countdown = setInterval(showCountdown, 1000);
      retry = setTimeout(connect, backoffMs);
      setRetryNow(() => connect);
      backoffMs = Math.min(backoffMs * 2, maxBackoffMs);
    };

    const send = (message: unknown) => {
      if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
    };
    const sendSize = () => send({ resize: { cols: xterm.cols, rows: xterm.rows } });
    const connect = () => {
      stopWaiting();
      const scheme = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
      const current = new WebSocket(`${scheme}//${window.location.host}/api/v1/terminals/${terminal.id}/ws`);
      socket = current;
      current.binaryType = 'arraybuffer';
      current.onopen = () => {
        backoffMs = 500;
        xterm.reset();
        setState('ok', 'connected');
        sendSize();
      };
      current.onmessage = (event) => {
        if (event.data instanceof ArrayBuffer) xterm.write(new Uint8Array(event.data));
        else {
          const error = (JSON.parse(String(event.data)) as { error?: { message?: string } }).error;
          if (error?.message) setState('danger', `refused: ${error.message}`);
        }
      };
      current.onclose = (event) => {
        if (stopped) return;
        if (event.code === 1000) return setState('neutral', 'ended: the shell exited');
        const final = finalCloseText(event);
        if (final) return setState('danger', final);
        reconnectLater();
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
      stopWaiting();
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
        <span data-testid="terminal-state">
          <Badge tone={connection.tone}>{connection.text}</Badge>
        </span>
        {retryNow && (
          <button type="button" onClick={retryNow}>
            Reconnect now
          </button>
        )}
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
