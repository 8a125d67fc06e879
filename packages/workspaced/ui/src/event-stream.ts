/**
 * The event socket (`/api/v1/ws`, README "Event socket"): `hello`, one `sub` per stream, and every
 * event frame (`{seq, stream, type, data, ...}`) handed to the caller once. A dropped socket
 * reconnects with backoff (as TerminalView's does; never after a final close code) and subscribes each stream again from the last
 * sequence number it saw there, so the daemon replays what was missed from its ring.
 * The first subscription of a stream (from now), `resync_required` and a restarted daemon (its
 * sequence numbers start again) call `onResync`: reload through REST. `stream_overflow` is
 * resubscribed from its `last_seq`, which replays what was dropped.
 */
import { useEffect, useRef } from 'react';
import { finalCloseText } from './socket-close.js';

export interface EventFrame {
  seq: number;
  stream: string;
  type: string;
  data: Record<string, unknown>;
  critical?: boolean;
}

const maxBackoffMs = 10_000;

/**
 * Subscribes to `streams` while the component is mounted (none: no socket). `onFrame` gets each
 * event once; `onResync` (default: nothing) when some events of a stream may be lost. Both may
 * change on every render; the socket is only reopened when the list of streams changes.
 */
export function useEventStream(
  streams: readonly string[],
  onFrame: (frame: EventFrame) => void,
  onResync: (stream: string) => void = () => {},
): void {
  const handler = useRef({ onFrame, onResync });
  handler.current = { onFrame, onResync };
  const key = streams.join(' ');

  useEffect(() => {
    if (key === '') return;
    const names = key.split(' ');
    let socket: WebSocket | undefined;
    let stopped = false;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let backoffMs = 500;
    /** The last sequence number seen on each stream. */
    const seen = new Map<string, number>();
    const resync = (stream: string) => handler.current.onResync(stream);

    const connect = () => {
      const scheme = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
      const current = new WebSocket(`${scheme}//${window.location.host}/api/v1/ws`);
      socket = current;
      current.onopen = () => {
        backoffMs = 500;
        current.send(JSON.stringify({ op: 'hello' }));
      };
      const subscribe = (stream: string) =>
        current.send(JSON.stringify({ op: 'sub', stream, last_seq: seen.get(stream) }));
      current.onmessage = (message) => {
        let frame: { op?: string; stream?: string; seq?: number; type?: string; last_seq?: number };
        try {
          frame = JSON.parse(String(message.data));
        } catch {
          return;
        }
        if (frame.op === 'hello') {
          // A daemon that restarted counts from 0 again: what was seen before means nothing now.
          const newest = typeof frame.seq === 'number' ? frame.seq : 0;
          if ([...seen.values()].some((seq) => seq > newest)) {
            seen.clear();
            for (const stream of names) resync(stream);
          }
          for (const stream of names) subscribe(stream);
          return;
        }
        if (frame.op === 'subscribed' && frame.stream && !seen.has(frame.stream)) {
          // Subscribed "from now": whatever the screen read through REST before this moment may
          // already be stale, so it reads again once (no change falls between the two).
          seen.set(frame.stream, typeof frame.seq === 'number' ? frame.seq : 0);
          return resync(frame.stream);
        }
        if (frame.op === 'resync_required' && frame.stream) return resync(frame.stream);
        if (frame.op === 'stream_overflow' && frame.stream) {
          if (typeof frame.last_seq === 'number') seen.set(frame.stream, frame.last_seq);
          subscribe(frame.stream);
          return;
        }
        if (typeof frame.type !== 'string' || typeof frame.seq !== 'number' || !frame.stream) return;
        const last = seen.get(frame.stream);
        if (last !== undefined && frame.seq <= last) return;
        seen.set(frame.stream, frame.seq);
        handler.current.onFrame(frame as EventFrame);
      };
      current.onclose = (event) => {
        if (stopped || finalCloseText(event)) return;
        retry = setTimeout(connect, backoffMs);
        backoffMs = Math.min(backoffMs * 2, maxBackoffMs);
      };
    };
    connect();
    return () => {
      stopped = true;
      clearTimeout(retry);
      socket?.close();
    };
  }, [key]);
}
