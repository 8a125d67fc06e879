/**
 * @module The daemon's live terminals: spawns PTYs with node-pty, numbers them, lists them,
 * terminates them (SIGHUP, then SIGKILL after a grace period) and publishes their lifecycle
 * (`terminal.created`, `terminal.exited`) on the event bus, on the streams `project:<id>` and
 * `terminal:<id>`. A terminal leaves the list once its process has exited. Each user may hold
 * `maxTerminalsPerUser` live terminals (theirs and their workflow steps'), well under the
 * daemon's `maxTerminals`, so one user's terminals cannot starve everyone else's.
 */
import { spawn } from 'node-pty';
import type { EventBus } from '../realtime/event-bus.js';
import { defaultFlowLimits, type FlowLimits } from './flow-control.js';
import { defaultScrollbackBytes } from './scrollback-ring.js';
import { type TerminalExit, type TerminalInfo, TerminalSession } from './terminal-session.js';

interface TerminalLimits {
  scrollbackBytes: number;
  flow: FlowLimits;
  /** Live terminals at once (each is a process and up to a scrollback ring of memory). */
  maxTerminals: number;
  /** Live terminals one user started (`createdBy`). */
  maxTerminalsPerUser: number;
  /** How long `terminate` waits after SIGHUP before SIGKILL. */
  killGraceMs: number;
}

const defaultTerminalLimits: TerminalLimits = {
  scrollbackBytes: defaultScrollbackBytes,
  flow: defaultFlowLimits,
  maxTerminals: 200,
  maxTerminalsPerUser: 20,
  killGraceMs: 3_000,
};

interface CreateTerminal {
  projectId: number;
  createdBy: string;
  shell: string;
  args: string[];
  /** What clients see of `args` (an agent's prompt left out); default `args`. */
  shownArgs?: string[];
  cwd: string;
  env: Record<string, string>;
  cols: number;
  rows: number;
}

export class TooManyTerminals extends Error {}

/** The user already runs `limit` terminals. */
export class TerminalQuotaExceeded extends Error {
  constructor(readonly limit: number) {
    super(`at most ${limit} live terminals per user`);
  }
}

export class TerminalManager {
  private readonly terminals = new Map<number, TerminalSession>();
  private nextId = 1;

  constructor(
    private readonly events: EventBus,
    private readonly limits: TerminalLimits = defaultTerminalLimits,
  ) {}

  create(input: CreateTerminal): TerminalSession {
    if (this.terminals.size >= this.limits.maxTerminals) throw new TooManyTerminals();
    const mine = this.list().filter((session) => session.info.createdBy === input.createdBy).length;
    if (mine >= this.limits.maxTerminalsPerUser)
      throw new TerminalQuotaExceeded(this.limits.maxTerminalsPerUser);
    const pty = spawn(input.shell, input.args, {
      name: 'xterm-256color',
      cols: input.cols,
      rows: input.rows,
      cwd: input.cwd,
      env: { ...process.env, TERM: 'xterm-256color', COLORTERM: 'truecolor', ...input.env },
      encoding: null,
    });
    const info: TerminalInfo = {
      id: this.nextId++,
      projectId: input.projectId,
      createdBy: input.createdBy,
      shell: input.shell,
      args: input.shownArgs ?? input.args,
      cwd: input.cwd,
      createdAt: Date.now(),
    };
    const session = new TerminalSession(info, pty, input, this.limits);
    this.terminals.set(info.id, session);
    this.publish(session, 'terminal.created', terminalView(session));
    session.onExit((exit) => {
      this.terminals.delete(info.id);
      this.publish(session, 'terminal.exited', {
        id: info.id,
        exit_code: exit.exitCode,
        signal: exit.signal,
      });
    });
    return session;
  }

  get(id: number): TerminalSession | undefined {
    return this.terminals.get(id);
  }

  list(): TerminalSession[] {
    return [...this.terminals.values()];
  }

  /** SIGHUP (what closing a terminal window sends), SIGKILL if the process ignores it. */
  terminate(session: TerminalSession): Promise<TerminalExit> {
    return new Promise((resolve) => {
      const force = setTimeout(() => session.kill('SIGKILL'), this.limits.killGraceMs);
      session.onExit((exit) => {
        clearTimeout(force);
        resolve(exit);
      });
      session.kill('SIGHUP');
    });
  }

  async terminateAll(): Promise<void> {
    await Promise.all(this.list().map((session) => this.terminate(session)));
  }

  private publish(session: TerminalSession, type: string, data: Record<string, unknown>): void {
    this.events.publish(`project:${session.info.projectId}`, type, data);
    this.events.publish(`terminal:${session.info.id}`, type, data);
  }
}

/** The JSON a client sees of a terminal. */
export function terminalView(session: TerminalSession) {
  const { info } = session;
  return {
    id: info.id,
    project_id: info.projectId,
    created_by: info.createdBy,
    shell: info.shell,
    args: info.args,
    cwd: info.cwd,
    pid: session.pid,
    cols: session.cols,
    rows: session.rows,
    created_at: new Date(info.createdAt).toISOString(),
    ...session.stats,
  };
}
