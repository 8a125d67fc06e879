/**
 * @module Removing an installation: the units (stopped and disabled first), the release and the
 * bin link always; configuration, database (the server's data folder and the agent's restore
 * points) and logs unless kept. Never runs iptables, ufw or nft: the rules in force stay as they
 * are. The `firewarden` user and group go only when nothing that belongs to them is kept.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { type InstallLayout, managesSystemd, unitNames } from './layout.js';
import { systemctl, systemdRunning } from './systemd.js';

export interface KeepChoice {
  config: boolean;
  database: boolean;
  logs: boolean;
}

export interface UninstallStep {
  action: 'stop-units' | 'remove' | 'keep' | 'remove-user';
  target: string;
}

/** What an uninstall does, in order, without doing it (printed by `--dry-run` and before asking). */
export function uninstallPlan(
  layout: InstallLayout,
  keep: KeepChoice,
  systemd = systemdRunning(),
): UninstallStep[] {
  const steps: UninstallStep[] = [];
  if (managesSystemd(layout, systemd)) steps.push({ action: 'stop-units', target: unitNames.join(' ') });
  for (const target of [...layout.unitFiles, layout.binLink, path.dirname(layout.releasesDir)]) {
    steps.push({ action: 'remove', target });
  }
  const optional: [keyof KeepChoice, string[]][] = [
    ['config', [layout.configDir]],
    ['database', [layout.dataDir, layout.agentStateDir]],
    ['logs', [layout.logDir]],
  ];
  for (const [part, targets] of optional) {
    for (const target of targets) steps.push({ action: keep[part] ? 'keep' : 'remove', target });
  }
  if (!keep.config && !keep.database && !keep.logs)
    steps.push({ action: 'remove-user', target: 'firewarden' });
  return steps;
}

export async function runUninstall(layout: InstallLayout, steps: UninstallStep[]): Promise<void> {
  for (const step of steps) {
    if (step.action === 'stop-units') await systemctl('disable', '--now', ...unitNames);
    if (step.action === 'remove') await rm(step.target, { recursive: true, force: true });
    if (step.action === 'remove-user') await removeServiceAccount(layout);
  }
  if (managesSystemd(layout, systemdRunning())) await systemctl('daemon-reload');
}

async function removeServiceAccount(layout: InstallLayout): Promise<void> {
  const prefixArgs = layout.prefix === '/' ? [] : ['--prefix', layout.prefix];
  const run = promisify(execFile);
  // Exit status 6 is "no such user/group" (already gone, or userdel took the private group too).
  const unlessAbsent = (error: { code?: unknown }) => {
    if (error.code !== 6) throw error;
  };
  if (!existsSync(path.join(layout.prefix, 'etc/passwd'))) return;
  await run('userdel', [...prefixArgs, 'firewarden']).catch(unlessAbsent);
  await run('groupdel', [...prefixArgs, 'firewarden']).catch(unlessAbsent);
}
