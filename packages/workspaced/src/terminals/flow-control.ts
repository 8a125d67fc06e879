/**
 * @module Flow control between one PTY and its clients: every frame handed to a client counts as
 * unsent until the socket reports it written. Above `highWaterBytes` unsent to the slowest
 * client the PTY is paused (the program then blocks on its own writes, so nothing piles up in
 * the daemon); below `lowWaterBytes` it resumes. Memory per terminal is thus bounded by about
 * the high-water mark plus one PTY read per client, whatever a client does.
 */
export interface FlowLimits {
  highWaterBytes: number;
  lowWaterBytes: number;
}

/** xterm.js parses 5-35 MB/s; a few hundred KiB in flight keeps a fast client busy. */
export const defaultFlowLimits: FlowLimits = { highWaterBytes: 512 * 1024, lowWaterBytes: 64 * 1024 };

export interface FlowTarget {
  pause(): void;
  resume(): void;
}

export class FlowGate {
  private readonly unsent = new Map<object, number>();
  private paused = false;

  constructor(
    private readonly target: FlowTarget,
    private readonly limits: FlowLimits = defaultFlowLimits,
  ) {}

  get isPaused(): boolean {
    return this.paused;
  }

  /** Bytes handed to the slowest client and not yet written to its socket. */
  get maxUnsent(): number {
    let max = 0;
    for (const bytes of this.unsent.values()) max = Math.max(max, bytes);
    return max;
  }

  add(client: object): void {
    this.unsent.set(client, 0);
  }

  remove(client: object): void {
    this.unsent.delete(client);
    this.update();
  }

  sent(client: object, bytes: number): void {
    const current = this.unsent.get(client);
    if (current === undefined) return;
    this.unsent.set(client, current + bytes);
    this.update();
  }

  written(client: object, bytes: number): void {
    const current = this.unsent.get(client);
    if (current === undefined) return;
    this.unsent.set(client, Math.max(0, current - bytes));
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
