/**
 * @module Where `packaging/install.sh` puts an installation, under a prefix (`/` on a host, a
 * temporary folder in tests). Uninstall and update read the same table, so the three agree.
 */
import path from 'node:path';

export interface InstallLayout {
  prefix: string;
  configDir: string;
  dataDir: string;
  agentStateDir: string;
  logDir: string;
  /** `releases/<version>` side by side; `current` is a symlink to the running one. */
  releasesDir: string;
  currentLink: string;
  binLink: string;
  unitFiles: string[];
  /** Database and config copies made before an update. */
  backupsDir: string;
}

export const unitNames = ['firewarden.service', 'firewarden-agent.service'] as const;

export function installLayout(prefix = '/'): InstallLayout {
  const at = (...parts: string[]) => path.join(path.resolve(prefix), ...parts);
  return {
    prefix: path.resolve(prefix),
    configDir: at('etc/firewarden'),
    dataDir: at('var/lib/firewarden'),
    agentStateDir: at('var/lib/firewarden-agent'),
    logDir: at('var/log/firewarden'),
    releasesDir: at('opt/firewarden/releases'),
    currentLink: at('opt/firewarden/current'),
    binLink: at('usr/bin/firewarden'),
    unitFiles: unitNames.map((unit) => at('etc/systemd/system', unit)),
    backupsDir: at('var/lib/firewarden/backups'),
  };
}

/** systemctl is used only on the real root with systemd running (never under a test prefix). */
export function managesSystemd(layout: InstallLayout, systemdRunning: boolean): boolean {
  return layout.prefix === '/' && systemdRunning;
}
