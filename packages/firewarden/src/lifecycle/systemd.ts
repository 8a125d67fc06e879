/**
 * @module The few systemctl calls the lifecycle commands make (argument arrays, never a shell).
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** systemd is PID 1 when this folder exists (what `sd_booted()` checks). */
export function systemdRunning(): boolean {
  return existsSync('/run/systemd/system');
}

export async function systemctl(...args: string[]): Promise<void> {
  await run('systemctl', args, { timeout: 60_000 });
}
