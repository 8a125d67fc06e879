/**
 * @module One live PTY (node-pty) and the clients watching it: output goes to the scrollback ring
 * and to every attached client; a client that attaches first gets the ring, then live output,
 * with nothing lost or repeated between the two (both happen in the same tick). Flow control
 * (flow-control.ts) pauses the PTY while the slowest writer is far behind, and evicts a watcher
 * that is (close code 4408).
 */
import type { IPty } from 'node-pty';
import { closeCodes } from '../realtime/socket-close.js';
import { FlowGate, type FlowLimits } from './flow-control.js';
import { drainAfterHangup } from './pty-hangup-drain.js';
import { holdSlaveUntilReaped } from './pty-slave-hold.js';
import { ScrollbackRing } from './scrollback-ring.js';

/** Where a terminal's output goes: a WebSocket, in practice. */
interface OutputSink {
  /** Sends one binary frame; `written` runs once it has left the process (or failed). */
  send(chunk: Buffer, written: () => void): void;
  close(code: number, reason: string): void;
}

export interface TerminalInfo {
  id: number;
  projectId: number;
  createdBy: string;
  shell: string;
  args: string[];
  /** Absolute, canonical working directory (inside the project). */
  cwd: string;
  createdAt: number;
}

/** Output a workflow step or an attempt keeps as `output_tail` once its terminal exits (the terminal does not stay). */
export const exitTailBytes = 4_096;

export interface TerminalExit {
  exitCode: number;
  signal: number | null;
}

export class TerminalSession {
  private readonly ring: ScrollbackRing;
  private readonly clients = new Set<OutputSink>();
  private readonly gate: FlowGate;
  private outputBytes = 0;
  private exit: TerminalExit | undefined;
  private readonly exitListeners: ((exit: TerminalExit) => void)[] = [];
  cols: number;
  rows: number;

  constructor(
    readonly info: TerminalInfo,
    private readonly pty: IPty,
    size: { cols: number; rows: number },
    limits: { scrollbackBytes: number; flow: FlowLimits },
  ) {
    this.cols = size.cols;
    this.rows = size.rows;
    this.ring = new ScrollbackRing(limits.scrollbackBytes);
    this.gate = new FlowGate(pty, limits.flow, (client) => {
      this.clients.delete(client as OutputSink);
      (client as OutputSink).close(closeCodes.tooSlow, 'too slow: reconnect to get the scrollback');
    });
    // Spawned with `encoding: null`, node-pty hands out Buffers (its typings say string).
    pty.onData((data) => this.output(data as unknown as Buffer));
    holdSlaveUntilReaped(pty);
    drainAfterHangup(pty, (chunk) => this.output(chunk));
    pty.onExit(({ exitCode, signal }) => {
      this.exit = { exitCode, signal: signal ?? null };
      for (const client of this.clients) client.close(1000, 'terminal exited');
      this.clients.clear();
      for (const listener of this.exitListeners.splice(0)) listener(this.exit);
    });
  }

  get pid(): number {
    return this.pty.pid;
  }

  /** Figures a client or a test can check: bounded memory shows here. */
  get stats() {
    return {
      clients: this.clients.size,
      output_bytes: this.outputBytes,
      scrollback_bytes: this.ring.byteLength,
      paused: this.gate.isPaused,
      max_unsent_bytes: this.gate.maxUnsent,
    };
  }

  /** The last `bytes` of output as text (agent state detection reads it; `exitTailBytes` is kept once it exits). */
  recentOutput(bytes: number): string {
    return this.ring.tail(bytes).toString('utf8');
  }

  onExit(listener: (exit: TerminalExit) => void): void {
    if (this.exit) listener(this.exit);
    else this.exitListeners.push(listener);
  }

  /**
   * Replays the scrollback to `client`, then streams live output; returns the detach function.
   * A `writer` (terminal.write) holds the PTY back when it reads slowly; a watcher is evicted.
   */
  attach(client: OutputSink, writer: boolean): () => void {
    if (this.exit) {
      client.close(1000, 'terminal exited');
      return () => {};
    }
    this.gate.add(client, writer);
    this.clients.add(client);
    const replay = this.ring.snapshot();
    if (replay.length > 0) this.sendTo(client, replay);
    return () => {
      this.clients.delete(client);
      this.gate.remove(client);
    };
  }

  write(data: string): void {
    if (!this.exit) this.pty.write(data);
  }

  resize(cols: number, rows: number): void {
    if (this.exit) return;
    this.pty.resize(cols, rows);
    this.cols = cols;
    this.rows = rows;
  }

  kill(signal: 'SIGHUP' | 'SIGKILL'): void {
    if (!this.exit) this.pty.kill(signal);
  }

  private output(chunk: Buffer): void {
    this.outputBytes += chunk.length;
    this.ring.append(chunk);
    for (const client of this.clients) this.sendTo(client, chunk);
  }

  private sendTo(client: OutputSink, chunk: Buffer): void {
    this.gate.sent(client, chunk.length);
    if (!this.clients.has(client)) return; // evicted by that very chunk
    client.send(chunk, () => this.gate.written(client, chunk.length));
  }
}
