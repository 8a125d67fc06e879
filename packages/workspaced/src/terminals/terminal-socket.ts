/**
 * @module The terminal socket `GET /api/v1/terminals/{id}/ws`, once the upgrade is authorized:
 * output as binary frames (the scrollback first, then live), input `{"input": "..."}` and
 * resize `{"resize": {"cols", "rows"}}` as JSON text frames. Every frame is judged with the
 * session and role of now (`access`), one after the other: a session that ended closes the socket
 * with 4401, a terminal no longer visible with 4403, a writer that lost terminal.write with 4403;
 * a watcher (no terminal.write from the start) gets an error frame for input or resize. A
 * malformed frame gets an error frame, never a crash.
 */
import type { WebSocket } from 'ws';
import type { SocketErrorCode } from '../http/error-codes.js';
import { closeCodes, endSocket } from '../realtime/socket-close.js';
import type { ServedSocket } from '../realtime/socket-endpoint.js';
import { socketMessageSchema } from './terminal-schema.js';
import type { TerminalSession } from './terminal-session.js';

/** What the socket's user may do with the terminal now: `ended` when their session ended. */
export type TerminalAccess = 'write' | 'view' | 'none' | 'ended';

interface TerminalSocketOptions {
  access(): Promise<TerminalAccess>;
  /** terminal.write at the upgrade: a writer holds the PTY back when slow, a watcher is evicted. */
  writer: boolean;
}

/** A client that sends bad frames without reading the answers gets no more than this queued. */
const maxQueuedErrorBytes = 64 * 1024;

function socketError(ws: WebSocket, code: SocketErrorCode, message: string): void {
  if (ws.bufferedAmount <= maxQueuedErrorBytes) ws.send(JSON.stringify({ error: { code, message } }));
}

function parseFrame(data: Buffer): unknown {
  try {
    return JSON.parse(data.toString('utf8'));
  } catch {
    return undefined;
  }
}

export function serveTerminalSocket(
  ws: WebSocket,
  session: TerminalSession,
  options: TerminalSocketOptions,
): ServedSocket {
  const detach = session.attach(
    {
      send: (chunk, written) => ws.send(chunk, { binary: true }, () => written()),
      close: (code, reason) => endSocket(ws, code, reason),
    },
    options.writer,
  );
  ws.on('close', detach);

  /** Ends the socket when the access of now no longer covers it; true when it stays open. */
  const stillAllowed = (access: TerminalAccess): boolean => {
    if (access === 'ended') endSocket(ws, closeCodes.sessionEnded, 'session ended; sign in again');
    else if (access === 'none') endSocket(ws, closeCodes.permissionWithdrawn, 'terminal.view withdrawn');
    else if (access === 'view' && options.writer)
      endSocket(ws, closeCodes.permissionWithdrawn, 'terminal.write withdrawn');
    else return true;
    return false;
  };

  const handle = async (data: Buffer, isBinary: boolean) => {
    const access = await options.access();
    if (!stillAllowed(access)) return;
    const parsed = isBinary ? undefined : socketMessageSchema.safeParse(parseFrame(data));
    if (!parsed?.success)
      return socketError(
        ws,
        'INVALID_MESSAGE',
        'send {"input": "..."} or {"resize": {"cols": n, "rows": n}}',
      );
    if (access !== 'write')
      return socketError(ws, 'PERMISSION_DENIED', 'your role does not grant terminal.write');
    const message = parsed.data;
    if ('input' in message) session.write(message.input);
    else session.resize(message.resize.cols, message.resize.rows);
  };

  // Frames are checked and applied in order; reading pauses meanwhile, so none pile up here.
  const pending: [Buffer, boolean][] = [];
  let draining = false;
  const drain = async () => {
    draining = true;
    ws.pause();
    try {
      for (let frame = pending.shift(); frame && ws.readyState === ws.OPEN; frame = pending.shift())
        await handle(...frame);
    } catch {
      endSocket(ws, 1011, 'internal error; see the daemon log');
    } finally {
      pending.length = 0;
      draining = false;
      // Also while closing: the client's answer to our close frame must be read.
      if (ws.readyState !== ws.CLOSED) ws.resume();
    }
  };
  ws.on('message', (data: Buffer, isBinary) => {
    pending.push([data, isBinary]);
    if (!draining) void drain();
  });

  return {
    async recheck() {
      stillAllowed(await options.access());
    },
  };
}
