/**
 * @module What the menu entries do. Open Web UI hands the address to the desktop's URL opener
 * (`xdg-open`); Restart and Stop go through the init system the CLI detects (`systemctl` on
 * systemd, asking polkit for rights as any desktop user's systemctl does); Quit ends the tray.
 */
import { spawn } from 'node:child_process';
import type { ServiceStatus } from '../lifecycle/init-system.js';
import { unitNames } from '../lifecycle/layout.js';
import { systemctl } from '../lifecycle/systemd.js';

/** Starts the URL opener and leaves it running (some openers stay until the browser closes). */
export function openWebUi(url: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const opener = spawn('xdg-open', [url], { detached: true, stdio: 'ignore' });
    opener.once('error', (error) => reject(new Error(`xdg-open cannot start: ${error.message}`)));
    opener.once('spawn', () => {
      opener.unref();
      resolve();
    });
  });
}

export type ServiceAction = 'restart' | 'stop';

/** Why Restart and Stop cannot run under this init system, or null when they can. */
export function serviceControlUnavailable(initSystem: ServiceStatus['init_system']): string | null {
  return initSystem === 'systemd' ? null : `needs systemd (init system here: ${initSystem})`;
}

/** Both units, the server and the agent, as `update apply` restarts them. */
export async function controlServices(action: ServiceAction): Promise<void> {
  await systemctl(action, ...unitNames);
}
