/**
 * @module Other managers of this kernel's firewall, found by the agent (it is root and sees the
 * kernel), each classified. A *competing* manager rewrites the same rules firewarden writes:
 * firewalld running, ufw active while the iptables backend is chosen, or a native nftables table
 * whose filter base chain on the input/forward/output hook drops by policy (it decides the same
 * packets by itself). Any competing manager makes the backend read-only (`FW_BACKEND_CONFLICT`)
 * unless `firewall.allow_write_on_manager_conflict` is true. A *cooperating* manager keeps to
 * chains or tables of its own (Docker, fail2ban, CrowdSec, libvirt, Kubernetes, Tailscale, a
 * native nftables table that filters nothing by policy): firewarden writes alongside it, since
 * neither touches the other's rules.
 */
import { readFile } from 'node:fs/promises';
import type { Family } from '../engine/addresses.js';
import { ufwChainsLoaded } from '../firewall/ufw-files.js';
import type { CommandRunner } from './command-runner.js';

type ManagerName =
  | 'firewalld'
  | 'ufw'
  | 'nftables'
  | 'docker'
  | 'fail2ban'
  | 'crowdsec'
  | 'libvirt'
  | 'kubernetes'
  | 'tailscale';

export interface FirewallManager {
  name: ManagerName;
  role: 'cooperating' | 'competing';
  /** What was seen, for the operator. */
  reason: string;
}

/** A competing manager, in the shape `FW_BACKEND_CONFLICT` and status' `conflicts` have always had. */
export interface ManagerConflict {
  manager: ManagerName;
  reason: string;
}

interface ConflictInput {
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

type Cooperating = Exclude<ManagerName, 'firewalld' | 'ufw' | 'nftables'>;

/** The iptables chains each cooperating tool creates (a name, or a prefix ending in `*`). */
export const cooperatingChains: Record<Cooperating, readonly string[]> = {
  docker: ['DOCKER', 'DOCKER-*'],
  fail2ban: ['f2b-*'],
  crowdsec: ['CROWDSEC*'],
  libvirt: ['LIBVIRT_*'],
  kubernetes: ['KUBE-*', 'cali-*', 'FLANNEL-*', 'CILIUM_*'],
  tailscale: ['ts-*'],
};

/** The native nftables tables each cooperating tool creates (any family). */
export const cooperatingTables: Record<Cooperating, readonly string[]> = {
  docker: ['docker-bridges', 'docker-*'],
  fail2ban: ['f2b-table', 'f2b-*'],
  crowdsec: ['crowdsec', 'crowdsec6', 'crowdsec-*'],
  libvirt: ['libvirt_network', 'libvirt-*', 'libvirt_*'],
  kubernetes: ['kube-proxy', 'kube-*', 'cilium*', 'calico*'],
  tailscale: ['ts-filter', 'ts-nat', 'tailscale*'],
};

function matchesName(patterns: readonly string[], name: string): boolean {
  return patterns.some((pattern) =>
    pattern.endsWith('*') ? name.startsWith(pattern.slice(0, -1)) : name === pattern,
  );
}

/** The cooperating tool a chain or table name belongs to, or null. */
export function ownerOfName(
  name: string,
  catalogue: Record<Cooperating, readonly string[]>,
): Cooperating | null {
  for (const [tool, patterns] of Object.entries(catalogue)) {
    if (matchesName(patterns, name)) return tool as Cooperating;
  }
  return null;
}

export async function detectManagers(run: CommandRunner, input: ConflictInput): Promise<FirewallManager[]> {
  const [daemon, native] = await Promise.all([firewalld(run), nftablesManagers(run)]);
  const managers = [...daemon];
  if (input.backend === 'iptables' && input.ufwSwitchedOn && ufwChainsLoaded(input.saved.ipv4)) {
    managers.push({
      name: 'ufw',
      role: 'competing',
      reason: 'ufw is active (ENABLED=yes and its chains are loaded) and rewrites the built-in chains',
    });
  }
  return merge([...managers, ...iptablesManagers(input.saved), ...native]);
}

/** The competing managers only: what refuses a write. */
export function conflictsOf(managers: FirewallManager[]): ManagerConflict[] {
  return managers
    .filter((manager) => manager.role === 'competing')
    .map(({ name, reason }) => ({ manager: name, reason }));
}

/** One entry per name and role; the reasons of several findings are joined. */
function merge(found: FirewallManager[]): FirewallManager[] {
  const byKey = new Map<string, FirewallManager>();
  for (const manager of found) {
    const key = `${manager.name}/${manager.role}`;
    const seen = byKey.get(key);
    byKey.set(key, seen ? { ...seen, reason: `${seen.reason}; ${manager.reason}` } : manager);
  }
  return [...byKey.values()];
}

/** Chains of the cooperating tools in `iptables-save` output (every table, both families). */
function iptablesManagers(saved: Record<Family, string>): FirewallManager[] {
  const chainsByTool = new Map<Cooperating, string[]>();
  for (const family of ['ipv4', 'ipv6'] as const) {
    let table = '';
    for (const line of saved[family].split('\n')) {
      if (line.startsWith('*')) table = line.slice(1).trim();
      if (!line.startsWith(':')) continue;
      const chain = line.slice(1).split(' ')[0] ?? '';
      const tool = ownerOfName(chain, cooperatingChains);
      if (tool === null) continue;
      chainsByTool.set(tool, [...(chainsByTool.get(tool) ?? []), `${chain} (${family} ${table})`]);
    }
  }
  return [...chainsByTool].map(([tool, chains]) => ({
    name: tool,
    role: 'cooperating',
    reason: `its own iptables chains: ${summarise(chains)}`,
  }));
}

async function firewalld(run: CommandRunner): Promise<FirewallManager[]> {
  const found = (reason: string): FirewallManager[] => [
    { name: 'firewalld', role: 'competing', reason: `${reason}; it rewrites the whole ruleset` },
  ];
  const unit = await run(['systemctl', 'is-active', 'firewalld']).catch(() => null);
  if (unit?.code === 0 && unit.stdout.trim() === 'active')
    return found('the systemd unit firewalld is active');
  // Without systemd (containers, other inits) firewalld still writes its pid file.
  const pid = Number((await readFile(firewalldPidFile, 'utf8').catch(() => '')).trim());
  if (!Number.isInteger(pid) || pid <= 0) return [];
  const command = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
  return command.includes('firewalld') ? found(`firewalld runs (pid ${pid} in ${firewalldPidFile})`) : [];
}

const filterHooks = new Set(['input', 'forward', 'output']);

async function nftablesManagers(run: CommandRunner): Promise<FirewallManager[]> {
  const [tablesResult, chainsResult] = await Promise.all([
    run(['nft', '-j', 'list', 'tables']).catch(() => null),
    run(['nft', '-j', 'list', 'chains']).catch(() => null),
  ]);
  if (tablesResult === null || tablesResult.code !== 0) return [];
  const chains = chainsResult?.code === 0 ? nftChains(chainsResult.stdout) : [];
  return nativeTables(tablesResult.stdout).map(({ family, name }): FirewallManager => {
    const tool = ownerOfName(name, cooperatingTables);
    if (tool !== null) {
      return { name: tool, role: 'cooperating', reason: `its own nftables table ${family} ${name}` };
    }
    const dropping = chains.filter(
      (chain) =>
        chain.family === family &&
        chain.table === name &&
        chain.type === 'filter' &&
        filterHooks.has(chain.hook ?? '') &&
        chain.policy === 'drop',
    );
    return dropping.length > 0
      ? {
          name: 'nftables',
          role: 'competing',
          reason: `native nftables table ${family} ${name} filters the ${dropping.map((c) => c.hook).join(', ')} hook(s) with a drop policy (${dropping.map((c) => c.name).join(', ')})`,
        }
      : {
          name: 'nftables',
          role: 'cooperating',
          reason: `native nftables table ${family} ${name} (no filter chain with a drop policy)`,
        };
  });
}

function summarise(items: string[]): string {
  return items.length > 8 ? `${items.slice(0, 8).join(', ')} and ${items.length - 8} more` : items.join(', ');
}

function nftItems(json: string): unknown[] {
  try {
    const items = (JSON.parse(json) as { nftables?: unknown })?.nftables;
    return Array.isArray(items) ? items : [];
  } catch {
    return [];
  }
}

/** The tables of `nft -j list tables` that iptables-nft did not create. */
export function nativeTables(json: string): { family: string; name: string }[] {
  return nftTables(json).filter(({ family, name }) => !xtablesTables[family]?.includes(name));
}

/** `nft -j list tables` -> [{family, name}]; anything unexpected in the JSON is skipped. */
export function nftTables(json: string): { family: string; name: string }[] {
  return nftItems(json).flatMap((item) => {
    const table = (item as { table?: { family?: unknown; name?: unknown } })?.table;
    return typeof table?.family === 'string' && typeof table.name === 'string'
      ? [{ family: table.family, name: table.name }]
      : [];
  });
}

interface NftChain {
  family: string;
  table: string;
  name: string;
  type?: string;
  hook?: string;
  policy?: string;
}

/** `nft -j list chains` -> chains (base chains carry type, hook and policy). */
function nftChains(json: string): NftChain[] {
  return nftItems(json).flatMap((item) => {
    const chain = (item as { chain?: Record<string, unknown> })?.chain;
    if (
      typeof chain?.family !== 'string' ||
      typeof chain.table !== 'string' ||
      typeof chain.name !== 'string'
    )
      return [];
    const text = (key: string) => (typeof chain[key] === 'string' ? (chain[key] as string) : undefined);
    return [
      {
        family: chain.family,
        table: chain.table,
        name: chain.name,
        type: text('type'),
        hook: text('hook'),
        policy: text('policy'),
      },
    ];
  });
}
