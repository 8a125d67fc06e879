/**
 * @module The event socket `GET /api/v1/ws`. The client sends `{"op": "hello", "last_seq": n}`
 * (its position; omitted: now), then `{"op": "sub", "stream": "..."}` per stream (optionally
 * with its own `last_seq`); `{"op": "unsub", "stream"}` stops one. A `sub` first replays the
 * stream's events after the position from the bus's ring (or answers `resync_required` when
 * they are gone), then streams live events as JSON text frames `{v, seq, stream, type, ts,
 * data, critical}`.
 *
 * Bounded per-client queue: frames handed to the socket but not yet written count as queued.
 * Past `maxQueued`, non-critical events are dropped and, once the queue drained to half, the
 * client gets `{"op": "stream_overflow", "stream", "last_seq"}` (resubscribe with that
 * `last_seq` to fetch the rest from the ring). Critical events are never dropped; a client
 * that lets any frames pile up to `4 × maxQueued` is disconnected and resumes with `hello` +
 * `last_seq`.
 */
import type { WebSocket } from 'ws';
import { z } from 'zod';
import type { WorkspacedDb } from '../db/open-database.js';
import type { Principal } from '../http/app-env.js';
import type { TerminalManager } from '../terminals/terminal-manager.js';
import type { EventBus, RealtimeEvent } from './event-bus.js';
import { maySubscribe } from './event-streams.js';

export const defaultMaxQueued = 1024;

const seq = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const stream = z.string().min(1).max(64);
const clientMessage = z.discriminatedUnion('op', [
  z.object({ op: z.literal('hello'), last_seq: seq.optional() }),
  z.object({ op: z.literal('sub'), stream, last_seq: seq.optional() }),
  z.object({ op: z.literal('unsub'), stream }),
]);

export interface EventSocketDeps {
  db: WorkspacedDb;
  terminals: TerminalManager;
  events: EventBus;
  maxQueued?: number;
}

export function serveEventSocket(ws: WebSocket, principal: Principal, deps: EventSocketDeps): void {
  const maxQueued = deps.maxQueued ?? defaultMaxQueued;
  const subscriptions = new Set<string>();
  /** Per stream, the last seq delivered before the first dropped event. */
  const overflowed = new Map<string, number>();
  let position: number | undefined;
  let queued = 0;

  const send = (frame: unknown) => {
    // Whatever the frame, a client this far behind is cut off; it resumes with hello + last_seq.
    if (queued >= maxQueued * 4) return ws.terminate();
    queued++;
    ws.send(JSON.stringify(frame), () => {
      queued--;
      if (queued <= maxQueued / 2 && overflowed.size > 0) {
        for (const [name, lastSeq] of overflowed)
          send({ op: 'stream_overflow', stream: name, last_seq: lastSeq });
        overflowed.clear();
      }
    });
  };
  const deliver = (event: RealtimeEvent) => {
    if (!event.critical && (overflowed.has(event.stream) || queued >= maxQueued)) {
      if (!overflowed.has(event.stream)) overflowed.set(event.stream, event.seq - 1);
      return;
    }
    send(event);
  };
  // Answers to a client's own bad messages are dropped once its queue is full, like noise.
  const error = (code: string, message: string) => {
    if (queued < maxQueued) send({ op: 'error', error: { code, message } });
  };

  const stopListening = deps.events.listen((event) => {
    if (subscriptions.has(event.stream)) deliver(event);
  });
  ws.on('close', stopListening);

  const subscribe = async (name: string, from: number | undefined) => {
    if (!(await maySubscribe(deps.db, deps.terminals, principal, name)))
      return error('STREAM_NOT_FOUND', `no stream ${name} you may subscribe to`);
    if (ws.readyState !== ws.OPEN) return;
    const after = from ?? position ?? deps.events.lastSeq;
    const missed = deps.events.since(after);
    subscriptions.add(name);
    send({ op: 'subscribed', stream: name, seq: deps.events.lastSeq });
    if (missed === undefined) return send({ op: 'resync_required', stream: name });
    for (const event of missed) if (event.stream === name) deliver(event);
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
}
