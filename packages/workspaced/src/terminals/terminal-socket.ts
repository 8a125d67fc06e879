/**
 * @module The terminal socket `GET /api/v1/terminals/{id}/ws`, once the upgrade is authorized:
 * output as binary frames (the scrollback first, then live), input `{"input": "..."}` and
 * resize `{"resize": {"cols", "rows"}}` as JSON text frames. A watcher without terminal.write
 * gets an error frame for input or resize; a malformed frame gets an error frame, never a crash.
 */
import type { WebSocket } from 'ws';
import { socketMessageSchema } from './terminal-schema.js';
import type { TerminalSession } from './terminal-session.js';

/** A client that sends bad frames without reading the answers gets no more than this queued. */
const maxQueuedErrorBytes = 64 * 1024;

export function socketError(ws: WebSocket, code: string, message: string): void {
  if (ws.bufferedAmount <= maxQueuedErrorBytes) ws.send(JSON.stringify({ error: { code, message } }));
}

function parseFrame(data: Buffer): unknown {
  try {
    return JSON.parse(data.toString('utf8'));
  } catch {
    return undefined;
  }
}

export function serveTerminalSocket(ws: WebSocket, session: TerminalSession, canWrite: boolean): void {
  const detach = session.attach({
    send: (chunk, written) => ws.send(chunk, { binary: true }, () => written()),
    close: (code, reason) => ws.close(code, reason),
  });
  ws.on('close', detach);
  ws.on('message', (data: Buffer, isBinary) => {
    const parsed = isBinary ? undefined : socketMessageSchema.safeParse(parseFrame(data));
    if (!parsed?.success)
      return socketError(
        ws,
        'INVALID_MESSAGE',
        'send {"input": "..."} or {"resize": {"cols": n, "rows": n}}',
      );
    if (!canWrite) return socketError(ws, 'PERMISSION_DENIED', 'your role does not grant terminal.write');
    const message = parsed.data;
    if ('input' in message) session.write(message.input);
    else session.resize(message.resize.cols, message.resize.rows);
  });
}
