/**
 * @module Test support: a private session bus, a real `dbus-daemon --session` listening on a
 * socket in a temporary folder, stopped (and the folder removed) by `stop`.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';

export interface SessionBusDaemon {
  /** The value for DBUS_SESSION_BUS_ADDRESS. */
  address: string;
  stop(): Promise<void>;
}

export async function startSessionBus(): Promise<SessionBusDaemon> {
  const dir = await mkdtemp(path.join(tmpdir(), 'firewarden-tray-bus-'));
  const daemon = spawn(
    'dbus-daemon',
    ['--session', '--nofork', '--print-address', `--address=unix:path=${path.join(dir, 'bus')}`],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  const exited = new Promise<void>((resolve) => daemon.once('exit', () => resolve()));
  const address = await new Promise<string>((resolve, reject) => {
    daemon.once('error', reject);
    daemon.once('exit', (code) =>
      reject(new Error(`dbus-daemon exited (${code}) before printing its address`)),
    );
    createInterface({ input: daemon.stdout }).once('line', (line) => resolve(line.trim()));
  });
  return {
    address,
    async stop() {
      daemon.kill('SIGTERM');
      await exited;
      await rm(dir, { recursive: true, force: true });
    },
  };
}
