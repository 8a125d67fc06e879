/**
 * @module Which firewall tools this host has, found without running them (the server is
 * unprivileged; the agent asks the kernel, `select-backend.ts`). `auto` picks ufw when it is
 * installed and switched on (`ENABLED=yes` in ufw.conf, readable by anyone), else iptables; the
 * agent also requires ufw's chains to be loaded.
 */
import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config/schema.js';
import { ufwSwitchedOn } from './ufw-files.js';

/** Tools that decide the backend, and managers whose presence means a possible conflict. */
const firewallTools = [
  'ufw',
  'iptables',
  'iptables-save',
  'iptables-restore',
  'ip6tables',
  'nft',
  'firewall-cmd',
] as const;
type FirewallTool = (typeof firewallTools)[number];

/** sbin folders are searched too: a non-root PATH often lacks them. */
const extraFolders = ['/usr/sbin', '/sbin', '/usr/local/sbin'];

interface BackendDetection {
  configured: Config['firewall']['backend'];
  /** The backend `auto` resolves to, or the configured one when it is installed; null when missing. */
  selected: 'ufw' | 'iptables' | null;
  tools: Record<FirewallTool, string | null>;
  /** Installed managers that may own the firewall besides the selected backend. */
  possible_conflicts: string[];
}

export async function detectBackend(
  configured: Config['firewall']['backend'],
  searchPath = process.env.PATH ?? '',
): Promise<BackendDetection> {
  const folders = [...new Set([...searchPath.split(path.delimiter).filter(Boolean), ...extraFolders])];
  const entries = await Promise.all(
    firewallTools.map(async (tool) => [tool, await findExecutable(tool, folders)] as const),
  );
  const tools = Object.fromEntries(entries) as Record<FirewallTool, string | null>;
  const installed = {
    ufw: tools.ufw !== null,
    iptables: tools.iptables !== null && tools['iptables-save'] !== null,
  };
  const selected =
    configured === 'auto'
      ? installed.ufw && (await ufwSwitchedOn())
        ? 'ufw'
        : installed.iptables
          ? 'iptables'
          : null
      : installed[configured]
        ? configured
        : null;
  const possible_conflicts = [
    ...(tools['firewall-cmd'] ? ['firewalld'] : []),
    ...(selected === 'iptables' && tools.ufw ? ['ufw'] : []),
  ];
  return { configured, selected, tools, possible_conflicts };
}

async function findExecutable(name: string, folders: string[]): Promise<string | null> {
  for (const folder of folders) {
    const candidate = path.join(folder, name);
    try {
      await access(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this folder
    }
  }
  return null;
}
