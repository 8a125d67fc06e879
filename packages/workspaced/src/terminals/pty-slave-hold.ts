/**
 * @module Keeps a program's terminal from hanging up on it while it exits. node-pty closes the
 * PTY master as soon as reading it reports EOF, which happens once the last slave descriptor is
 * closed. Some programs close their standard streams themselves before exiting (GNU xargs closes
 * 0, 1 and 2 and then calls exit): the master then closes while they still run, the kernel sends
 * SIGHUP to the session leader, and a program about to exit 0 is reported "killed by signal 1"
 * (its real status is lost). Holding a slave descriptor of our own defers that EOF; it is released
 * as soon as node-pty has reaped the program, so the PTY's end and its last output come as before.
 */
import { closeSync, constants, openSync } from 'node:fs';
import type { IPty } from 'node-pty';

/** node-pty's UnixTerminal keeps these private; without them nothing is held. */
interface UnixTerminalInternals {
  _pty?: string;
  _socket?: { on(event: 'newListener' | 'close', listener: (event?: string | symbol) => void): unknown };
  /** Set by node-pty when waitpid returned, just before it waits for the socket to close. */
  _boundClose?: boolean;
}

/** Opens the PTY's slave side until `pty`'s program has been reaped. */
export function holdSlaveUntilReaped(pty: IPty): void {
  const internals = pty as unknown as UnixTerminalInternals;
  const { _pty: slavePath, _socket: socket } = internals;
  if (!slavePath || !socket) return;
  let slave: number | undefined;
  try {
    // O_NOCTTY: the daemon must never make a program's terminal its own.
    slave = openSync(slavePath, constants.O_RDWR | constants.O_NOCTTY | constants.O_NONBLOCK);
  } catch {
    return; // the program is already gone and the slave with it: nothing to protect.
  }
  const release = () => {
    if (slave === undefined) return;
    closeSync(slave);
    slave = undefined;
  };
  // On reaping, node-pty sets _boundClose and then listens for the socket's close: that listener
  // is our signal to let the master read its EOF (with whatever output is still pending).
  socket.on('newListener', (event) => {
    if (event === 'close' && internals._boundClose === true) release();
  });
  socket.on('close', release);
}
