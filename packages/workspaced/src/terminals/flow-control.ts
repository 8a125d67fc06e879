/**
 * @module Flow control between one PTY and its clients: every frame handed to a client counts as
 * unsent until the socket reports it written. Clients that may write to the terminal (its
 * writers) hold it back: above `highWaterBytes` unsent to the slowest writer the PTY is paused
 * (the program then blocks on its own writes, so nothing piles up in the daemon); below
 * `lowWaterBytes` it resumes. A writer could pause the program anyway (Ctrl-S), so this grants
 * them nothing new. A watcher (no terminal.write) never pauses it: one that falls more than
 * `watcherMaxUnsentBytes` behind is evicted (its socket closed with 4408) so a viewer that stops
 * reading cannot freeze the owner's terminal. Memory per terminal is thus bounded by about the
 * high-water mark, or the watcher bound, plus one PTY read per client, whatever a client does.
 */
export interface FlowLimits {
  highWaterBytes: number;
  lowWaterBytes: number;
  /** Past this a watcher is evicted: four times the scrollback a reconnect replays (1 MiB). */
  watcherMaxUnsentBytes: number;
}

/** xterm.js parses 5-35 MB/s; a few hundred KiB in flight keeps a fast client busy. */
export const defaultFlowLimits: FlowLimits = {
  highWaterBytes: 512 * 1024,
  lowWaterBytes: 64 * 1024,
  watcherMaxUnsentBytes: 4 * 1024 * 1024,
};

interface FlowTarget {
  pause(): void;
  resume(): void;
}

interface ClientFlow {
  unsent: number;
  /** A writer holds the PTY back; a watcher is evicted instead. */
  holdsBack: boolean;
}

export class FlowGate {
  private readonly clients = new Map<object, ClientFlow>();
  private paused = false;

  constructor(
    private readonly target: FlowTarget,
    private readonly limits: FlowLimits = defaultFlowLimits,
    /** Called once for a watcher that fell too far behind (it is forgotten first). */
    private readonly evict: (client: object) => void = () => {},
  ) {}

  get isPaused(): boolean {
    return this.paused;
  }

  /** Bytes handed to the slowest writer and not yet written to its socket. */
  get maxUnsent(): number {
    let max = 0;
    for (const flow of this.clients.values()) if (flow.holdsBack) max = Math.max(max, flow.unsent);
    return max;
  }

  add(client: object, holdsBack = true): void {
    this.clients.set(client, { unsent: 0, holdsBack });
  }

  remove(client: object): void {
    this.clients.delete(client);
    this.update();
  }

  sent(client: object, bytes: number): void {
    const flow = this.clients.get(client);
    if (!flow) return;
    flow.unsent += bytes;
    if (!flow.holdsBack && flow.unsent > this.limits.watcherMaxUnsentBytes) {
      this.clients.delete(client);
      this.evict(client);
      return;
    }
    this.update();
  }

  written(client: object, bytes: number): void {
    const flow = this.clients.get(client);
    if (!flow) return;
    flow.unsent = Math.max(0, flow.unsent - bytes);
    this.update();
  }

  private update(): void {
    const max = this.maxUnsent;
    if (!this.paused && max > this.limits.highWaterBytes) {
      this.paused = true;
      this.target.pause();
    } else if (this.paused && max <= this.limits.lowWaterBytes) {
      this.paused = false;
      this.target.resume();
    }
  }
}
