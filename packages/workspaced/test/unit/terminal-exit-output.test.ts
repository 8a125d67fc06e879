/**
 * @module Tests: a terminal's last output is kept when node-pty delivers it after the exit event
 * (microsoft/node-pty#72: a workflow step's output tail once missed its last line that way). A
 * real PTY cannot be made to race on demand, so a scripted one replays that order of events.
 */
import type { IPty } from 'node-pty';
import { describe, expect, test } from 'vitest';
import { defaultFlowLimits } from '../../src/terminals/flow-control.js';
import type { OutputSink, TerminalExit } from '../../src/terminals/terminal-session.js';
import { TerminalSession } from '../../src/terminals/terminal-session.js';

/** The two events node-pty raises, fired when the test says. */
function scriptedPty() {
  let onData: (data: Buffer) => void = () => {};
  let onExit: (exit: { exitCode: number; signal?: number }) => void = () => {};
  const pty = {
    pid: 4242,
    onData: (listener: typeof onData) => {
      onData = listener;
    },
    onExit: (listener: typeof onExit) => {
      onExit = listener;
    },
    pause() {},
    resume() {},
  } as unknown as IPty;
  return {
    pty,
    output: (text: string) => onData(Buffer.from(text)),
    exit: (exitCode: number) => onExit({ exitCode }),
  };
}

function session(pty: IPty): TerminalSession {
  const info = { id: 1, projectId: 1, createdBy: 'owner', shell: 'sh', args: [], cwd: '/', createdAt: 0 };
  return new TerminalSession(
    info,
    pty,
    { cols: 80, rows: 24 },
    { scrollbackBytes: 4_096, flow: defaultFlowLimits },
  );
}

const nextExit = (terminal: TerminalSession) =>
  new Promise<{ exit: TerminalExit; tail: string }>((resolve) =>
    terminal.onExit((exit) => resolve({ exit, tail: terminal.recentOutput(4_096) })),
  );

describe('a terminal whose output arrives after its exit event', () => {
  test('exit listeners see the last output, and a watching client receives it before the close', async () => {
    const script = scriptedPty();
    const terminal = session(script.pty);
    const received: string[] = [];
    const client: OutputSink = {
      send: (chunk, written) => {
        received.push(chunk.toString());
        written();
      },
      close: (code, reason) => received.push(`close ${code} ${reason}`),
    };
    terminal.attach(client);
    const exited = nextExit(terminal);

    script.output('ready-42\r\nyes\r\n');
    script.exit(0);
    script.output('got-yes\r\n');
    setTimeout(() => script.output('late-line\r\n'), 5);

    const { exit, tail } = await exited;
    expect(exit).toEqual({ exitCode: 0, signal: null });
    expect(tail).toBe('ready-42\r\nyes\r\ngot-yes\r\nlate-line\r\n');
    expect(received).toEqual([
      'ready-42\r\nyes\r\n',
      'got-yes\r\n',
      'late-line\r\n',
      'close 1000 terminal exited',
    ]);
  });

  test('a listener added after the announcement is told at once; input after the exit is dropped', async () => {
    const script = scriptedPty();
    const terminal = session(script.pty);
    script.exit(3);
    await nextExit(terminal);
    let told: TerminalExit | undefined;
    terminal.onExit((exit) => {
      told = exit;
    });
    expect(told).toEqual({ exitCode: 3, signal: null });
    expect(() => terminal.write('ignored')).not.toThrow();
  });
});
