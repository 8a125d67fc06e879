/**
 * @module The daemon's event bus: every event gets the next sequence number and lands in a replay
 * ring (the last 1,024 events, at most 8 MiB of frames), so a client that reconnects with
 * `last_seq` receives what it missed. Each event is serialized once, here, into the text frame
 * every socket sends; listeners (the event sockets, webhooks, notification rules) get the event
 * and that frame as it is published.
 */
export interface RealtimeEvent {
  v: 1;
  seq: number;
  /** `project:<id>`, `terminal:<id>`, ... (event-streams.ts). */
  stream: string;
  type: string;
  ts: string;
  data: Record<string, unknown>;
  /** Never dropped for a slow client (attention, approvals, failures) when the daemon says so. */
  critical: boolean;
  /**
   * Who published it: `client` for `POST /events`. A client's `critical` is a priority only
   * (event-socket.ts); only the daemon's own critical events are never dropped. Not on the wire.
   */
  origin: EventOrigin;
}

type EventOrigin = 'daemon' | 'client';

/** The JSON text frame of an event, as sockets send it: `{v, seq, stream, type, ts, data, critical}`. */
export type EventFrame = Buffer;

interface StoredEvent {
  event: RealtimeEvent;
  frame: EventFrame;
}

const defaultReplayEvents = 1024;
const defaultReplayBytes = 8 * 1024 * 1024;

type EventListener = (event: RealtimeEvent, frame: EventFrame) => void;

function toFrame(event: RealtimeEvent): EventFrame {
  const { v, seq, stream, type, ts, data, critical } = event;
  return Buffer.from(JSON.stringify({ v, seq, stream, type, ts, data, critical }));
}

export class EventBus {
  private readonly ring: StoredEvent[] = [];
  private ringBytes = 0;
  private readonly listeners = new Set<EventListener>();
  private seq = 0;

  constructor(
    private readonly replayCapacity = defaultReplayEvents,
    private readonly replayBytes = defaultReplayBytes,
  ) {}

  get lastSeq(): number {
    return this.seq;
  }

  publish(
    stream: string,
    type: string,
    data: Record<string, unknown>,
    critical = false,
    origin: EventOrigin = 'daemon',
  ): RealtimeEvent {
    const event: RealtimeEvent = {
      v: 1,
      seq: this.seq + 1,
      stream,
      type,
      ts: new Date().toISOString(),
      data,
      critical,
      origin,
    };
    // Serialized before the sequence number is taken: data that cannot be serialized publishes nothing.
    const frame = toFrame(event);
    this.seq = event.seq;
    this.ring.push({ event, frame });
    this.ringBytes += frame.length;
    while (
      this.ring.length > 1 &&
      (this.ring.length > this.replayCapacity || this.ringBytes > this.replayBytes)
    )
      this.ringBytes -= this.ring.shift()!.frame.length;
    for (const listener of this.listeners) listener(event, frame);
    return event;
  }

  /**
   * Events after `lastSeq`, or `undefined` when some of them already left the ring (the client
   * must then resynchronize from the REST resources).
   */
  since(lastSeq: number): StoredEvent[] | undefined {
    if (lastSeq >= this.seq) return [];
    const oldest = this.ring[0]?.event.seq ?? this.seq + 1;
    if (lastSeq < oldest - 1) return undefined;
    return this.ring.slice(lastSeq - oldest + 1);
  }

  listen(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
