/**
 * @module The event socket `GET /api/v1/ws`. The client sends `{"op": "hello", "last_seq": n}`
 * (its position; omitted: now), then `{"op": "sub", "stream": "..."}` per stream (optionally
 * with its own `last_seq`); `{"op": "unsub", "stream"}` stops one. A `sub` first replays the
 * stream's events after the position from the bus's ring (or answers `resync_required` when
 * they are gone), then streams live events as JSON text frames `{v, seq, stream, type, ts,
 * data, critical}`.
 *
 * Every `sub` validates the session again and authorizes the stream with the user's current
 * role; `recheck` (a role or membership change) closes the socket with 4403 when a subscribed
 * stream is no longer visible, 4401 when the session has ended.
 *
 * The per-client queue is bounded in bytes: what the socket holds not yet written (ws's
 * `bufferedAmount`) counts as queued. Past `maxQueuedBytes`, ordinary events are dropped and, once the queue drained
 * to half, the client gets `{"op": "stream_overflow", "stream", "last_seq"}` (resubscribe with
 * that `last_seq` to fetch the rest from the ring). A client's `critical` (POST /events) is a
 * priority: such events are still queued up to four times that bound, and dropped past it. The
 * daemon's own critical events are never dropped: a client they would push past that bound is
 * closed with 4408 and resumes with `hello` + `last_seq`.
 */
import type { WebSocket } from 'ws';
import { z } from 'zod';
import type { WorkspacedDb } from '../db/open-database.js';
import type { SocketErrorCode } from '../http/error-codes.js';
import type { TerminalManager } from '../terminals/terminal-manager.js';
import type { EventBus, EventFrame, RealtimeEvent } from './event-bus.js';
import { maySubscribe } from './event-streams.js';
import { closeCodes, endSocket } from './socket-close.js';
import type { ServedSocket } from './socket-endpoint.js';
import type { CurrentPrincipal } from './socket-principal.js';

const defaultMaxQueuedBytes = 1024 * 1024;

const seq = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const stream = z.string().min(1).max(64);
const clientMessage = z.discriminatedUnion('op', [
  z.object({ op: z.literal('hello'), last_seq: seq.optional() }),
  z.object({ op: z.literal('sub'), stream, last_seq: seq.optional() }),
  z.object({ op: z.literal('unsub'), stream }),
]);

interface EventSocketDeps {
  db: WorkspacedDb;
  terminals: TerminalManager;
  events: EventBus;
  /** Queued bytes past which ordinary events are dropped; four times it is the hard bound. */
  maxQueuedBytes?: number;
}

export function serveEventSocket(
  ws: WebSocket,
  currentPrincipal: CurrentPrincipal,
  deps: EventSocketDeps,
): ServedSocket {
  const softBytes = deps.maxQueuedBytes ?? defaultMaxQueuedBytes;
  const hardBytes = softBytes * 4;
  const subscriptions = new Set<string>();
  /** Per stream, the last seq delivered before the first dropped event. */
  const overflowed = new Map<string, number>();
  let position: number | undefined;

  const sendFrame = (frame: Buffer) => {
    if (ws.readyState !== ws.OPEN) return;
    if (ws.bufferedAmount + frame.length > hardBytes)
      return endSocket(
        ws,
        closeCodes.tooSlow,
        'too slow: the queue passed its byte bound; resume with last_seq',
      );
    ws.send(frame, { binary: false }, () => {
      if (ws.bufferedAmount <= softBytes / 2 && overflowed.size > 0) {
        for (const [name, lastSeq] of overflowed)
          send({ op: 'stream_overflow', stream: name, last_seq: lastSeq });
        overflowed.clear();
      }
    });
  };
  const send = (message: unknown) => sendFrame(Buffer.from(JSON.stringify(message)));
  const deliver = (event: RealtimeEvent, frame: EventFrame) => {
    const mustArrive = event.critical && event.origin === 'daemon';
    if (!mustArrive) {
      const bound = event.critical ? hardBytes : softBytes;
      const behind = !event.critical && overflowed.has(event.stream);
      if (behind || ws.bufferedAmount + frame.length > bound) {
        if (!overflowed.has(event.stream)) overflowed.set(event.stream, event.seq - 1);
        return;
      }
    }
    sendFrame(frame);
  };
  // Answers to a client's own bad messages are dropped once its queue is full, like noise.
  const error = (code: SocketErrorCode, message: string) => {
    if (ws.bufferedAmount < softBytes) send({ op: 'error', error: { code, message } });
  };

  const stopListening = deps.events.listen((event, frame) => {
    if (subscriptions.has(event.stream)) deliver(event, frame);
  });
  ws.on('close', stopListening);

  const subscribe = async (name: string, from: number | undefined) => {
    const principal = await currentPrincipal();
    if (!principal) return endSocket(ws, closeCodes.sessionEnded, 'session ended; sign in again');
    if (!(await maySubscribe(deps.db, deps.terminals, principal, name)))
      return error('STREAM_NOT_FOUND', `no stream ${name} you may subscribe to`);
    if (ws.readyState !== ws.OPEN) return;
    const after = from ?? position ?? deps.events.lastSeq;
    const missed = deps.events.since(after);
    subscriptions.add(name);
    send({ op: 'subscribed', stream: name, seq: deps.events.lastSeq });
    if (missed === undefined) return send({ op: 'resync_required', stream: name });
    for (const { event, frame } of missed) if (event.stream === name) deliver(event, frame);
  };

  // Subscriptions are authorized one after the other, so replays keep the client's order.
  let chain = Promise.resolve();
  ws.on('message', (data: Buffer, isBinary) => {
    let value: unknown;
    try {
      value = isBinary ? undefined : JSON.parse(data.toString('utf8'));
    } catch {}
    const parsed = clientMessage.safeParse(value);
    if (!parsed.success) return error('INVALID_MESSAGE', 'send {"op": "hello"|"sub"|"unsub", ...}');
    const message = parsed.data;
    if (message.op === 'hello') {
      position = message.last_seq ?? deps.events.lastSeq;
      return send({ op: 'hello', seq: deps.events.lastSeq });
    }
    if (message.op === 'unsub') {
      subscriptions.delete(message.stream);
      return send({ op: 'unsubscribed', stream: message.stream });
    }
    chain = chain.then(() =>
      subscribe(message.stream, message.last_seq).catch(() => error('INTERNAL', 'subscribing failed')),
    );
  });

  const recheck = async () => {
    const principal = await currentPrincipal();
    if (!principal) return endSocket(ws, closeCodes.sessionEnded, 'session ended; sign in again');
    for (const name of subscriptions) {
      if (await maySubscribe(deps.db, deps.terminals, principal, name)) continue;
      // Nothing more is delivered from here on, not even while the close frame waits.
      subscriptions.clear();
      return endSocket(ws, closeCodes.permissionWithdrawn, `access to ${name} withdrawn`);
    }
  };

  return {
    // In the same line as the subs, so a sub authorized before the change cannot land after it.
    recheck: () => {
      chain = chain.then(recheck).catch(() => endSocket(ws, 1011, 'internal error; see the daemon log'));
      return chain;
    },
  };
}
