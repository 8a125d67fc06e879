/**
 * @module Test support: `firewarden tray` from dist/ as a user starts it, optionally on a
 * "systemd host": in a private mount namespace whose /run has `systemd/system`, the marker the CLI
 * detects systemd by (the test machine has no systemd; nothing outside the namespace changes).
 */
import { spawn } from 'node:child_process';
import { childEnvironment, cliPath } from '../../support/running-bin.js';

export interface TrayProcess {
  stdout: () => string;
  stderr: () => string;
  /** The exit code once the process ended. */
  exited: Promise<number | null>;
  stop(): Promise<void>;
}

const onSystemd = 'mount -t tmpfs tmpfs /run && mkdir -p /run/systemd/system && exec "$@"';

export function startTray(
  args: string[],
  env: NodeJS.ProcessEnv,
  options: { systemd: boolean },
): TrayProcess {
  const command = [process.execPath, cliPath, 'tray', ...args];
  const child = options.systemd
    ? spawn('unshare', ['--mount', 'sh', '-c', onSystemd, 'tray-on-systemd', ...command], {
        env: childEnvironment(env),
      })
    : spawn(command[0]!, command.slice(1), { env: childEnvironment(env) });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    stdout: () => stdout,
    stderr: () => stderr,
    exited,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
