/**
 * @module Other managers of this kernel's firewall, found by the agent (it is root and sees the
 * kernel): firewalld running, nftables tables that iptables-nft did not create, ufw active while
 * the iptables backend is chosen, Docker's chains. Any of them makes the backend read-only
 * (`FW_BACKEND_CONFLICT`) unless `firewall.allow_write_on_manager_conflict` is true: two managers
 * writing the same tables undo each other's rules.
 */
import { readFile } from 'node:fs/promises';
import type { CommandRunner } from '../agent/command-runner.js';
import type { Family } from '../engine/addresses.js';
import { ufwChainsLoaded } from './ufw-files.js';

export type Manager = 'firewalld' | 'nftables' | 'ufw' | 'docker';

export interface ManagerConflict {
  manager: Manager;
  /** What was seen, for the operator. */
  reason: string;
}

export interface ConflictInput {
  backend: 'ufw' | 'iptables';
  /** `iptables-save` / `ip6tables-save` of the chosen variant, just read. */
  saved: Record<Family, string>;
  ufwSwitchedOn: boolean;
}

const firewalldPidFile = '/run/firewalld/firewalld.pid';

/**
 * Tables iptables-nft (and its arptables/ebtables siblings) create for their own use. Everything
 * else, including `inet` tables (iptables-nft never makes one; Debian's nftables.conf does), is a
 * native nftables ruleset.
 */
const xtablesTables: Record<string, readonly string[]> = {
  ip: ['filter', 'nat', 'mangle', 'raw', 'security'],
  ip6: ['filter', 'nat', 'mangle', 'raw', 'security'],
  arp: ['filter'],
  bridge: ['filter', 'nat', 'broute'],
};

export async function detectManagerConflicts(
  run: CommandRunner,
  input: ConflictInput,
): Promise<ManagerConflict[]> {
  const found = await Promise.all([firewalld(run), nativeNftables(run)]);
  const conflicts = found.flat();
  if (input.backend === 'iptables' && input.ufwSwitchedOn && ufwChainsLoaded(input.saved.ipv4)) {
    conflicts.push({ manager: 'ufw', reason: 'ufw is active (ENABLED=yes and its chains are loaded)' });
  }
  const dockerChains = (['ipv4', 'ipv6'] as const).flatMap((family) =>
    ['DOCKER', 'DOCKER-USER']
      .filter((chain) => input.saved[family].includes(`\n:${chain} `))
      .map((chain) => `${chain} (${family})`),
  );
  if (dockerChains.length > 0) {
    conflicts.push({ manager: 'docker', reason: `Docker's chains are present: ${dockerChains.join(', ')}` });
  }
  return conflicts;
}

async function firewalld(run: CommandRunner): Promise<ManagerConflict[]> {
  const unit = await run(['systemctl', 'is-active', 'firewalld']).catch(() => null);
  if (unit?.code === 0 && unit.stdout.trim() === 'active') {
    return [{ manager: 'firewalld', reason: 'the systemd unit firewalld is active' }];
  }
  // Without systemd (containers, other inits) firewalld still writes its pid file.
  const pid = Number((await readFile(firewalldPidFile, 'utf8').catch(() => '')).trim());
  if (!Number.isInteger(pid) || pid <= 0) return [];
  const command = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
  return command.includes('firewalld')
    ? [{ manager: 'firewalld', reason: `firewalld runs (pid ${pid} in ${firewalldPidFile})` }]
    : [];
}

async function nativeNftables(run: CommandRunner): Promise<ManagerConflict[]> {
  const result = await run(['nft', '-j', 'list', 'tables']).catch(() => null);
  if (result === null || result.code !== 0) return [];
  const foreign = nftTables(result.stdout).filter(
    ({ family, name }) => !xtablesTables[family]?.includes(name),
  );
  return foreign.length === 0
    ? []
    : [
        {
          manager: 'nftables',
          reason: `native nftables tables: ${foreign.map((t) => `${t.family} ${t.name}`).join(', ')}`,
        },
      ];
}

/** `nft -j list tables` -> [{family, name}]; anything unexpected in the JSON is skipped. */
export function nftTables(json: string): { family: string; name: string }[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return [];
  }
  const items = (parsed as { nftables?: unknown })?.nftables;
  if (!Array.isArray(items)) return [];
  return items.flatMap((item) => {
    const table = (item as { table?: { family?: unknown; name?: unknown } })?.table;
    return typeof table?.family === 'string' && typeof table.name === 'string'
      ? [{ family: table.family, name: table.name }]
      : [];
  });
}
