/**
 * @module The daemon's event bus: every event gets the next sequence number and lands in a replay
 * ring (the last 1,024 events), so a client that reconnects with `last_seq` receives what it
 * missed. Listeners (the event sockets) get each event as it is published.
 */
export interface RealtimeEvent {
  v: 1;
  seq: number;
  /** `project:<id>`, `terminal:<id>`, ... (event-streams.ts). */
  stream: string;
  type: string;
  ts: string;
  data: Record<string, unknown>;
  /** Never dropped for a slow client (attention, approvals, failures). */
  critical: boolean;
}

export const defaultReplayEvents = 1024;

export type EventListener = (event: RealtimeEvent) => void;

export class EventBus {
  private readonly ring: RealtimeEvent[] = [];
  private readonly listeners = new Set<EventListener>();
  private seq = 0;

  constructor(private readonly replayCapacity = defaultReplayEvents) {}

  get lastSeq(): number {
    return this.seq;
  }

  publish(stream: string, type: string, data: Record<string, unknown>, critical = false): RealtimeEvent {
    const event: RealtimeEvent = {
      v: 1,
      seq: ++this.seq,
      stream,
      type,
      ts: new Date().toISOString(),
      data,
      critical,
    };
    this.ring.push(event);
    if (this.ring.length > this.replayCapacity) this.ring.shift();
    for (const listener of this.listeners) listener(event);
    return event;
  }

  /**
   * Events after `lastSeq`, or `undefined` when some of them already left the ring (the client
   * must then resynchronize from the REST resources).
   */
  since(lastSeq: number): RealtimeEvent[] | undefined {
    if (lastSeq >= this.seq) return [];
    const oldest = this.ring[0]?.seq ?? this.seq + 1;
    if (lastSeq < oldest - 1) return undefined;
    return this.ring.slice(lastSeq - oldest + 1);
  }

  listen(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
