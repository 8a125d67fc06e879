/**
 * @module The rules in force that firewarden does not own, read-only: every line of both
 * families' `iptables-save` outside our chains (and the jumps to them), and the rules of the
 * native nftables tables, each with the tool it belongs to (by its chain or table name, or the
 * chain a built-in chain's line jumps to), plus the built-in chains' policies. An operator opens
 * a firewall UI first to see what is in force; the lockout check evaluates the same lines.
 */

import type { Family } from '../engine/addresses.js';
import { directionOfChain, dockerChain, ownedChains } from '../engine/iptables-chains.js';
import { parseIptablesSave } from '../engine/iptables-parse.js';
import { ufwBlocklistChain } from '../engine/ufw-blocklist-rules.js';
import type { CommandRunner } from './command-runner.js';
import { cooperatingChains, cooperatingTables, nativeTables, ownerOfName } from './manager-conflicts.js';

const foreignOwners = [
  'docker',
  'ufw',
  'fail2ban',
  'crowdsec',
  'libvirt',
  'kubernetes',
  'tailscale',
  'unknown',
] as const;
type ForeignOwner = (typeof foreignOwners)[number];

export interface ForeignRule {
  owner: ForeignOwner;
  /** `ipv4`/`ipv6` for iptables lines; the nftables family (`inet`, `ip`, `ip6`...) for nft rules. */
  family: string;
  table: string;
  chain: string;
  /** The line as `iptables-save` or `nft list table` prints it. */
  rule: string;
  /** 1-based place in its chain, counting our lines too (iptables only). */
  position?: number;
}

export interface ChainPolicy {
  family: Family;
  table: string;
  chain: string;
  policy: string;
}

export interface ForeignRuleset {
  foreign: ForeignRule[];
  policies: ChainPolicy[];
  /** Where a built-in chain jumps to ours (1-based), for the lockout check's walk of INPUT. */
  own_jumps: { family: Family; chain: string; position: number }[];
}

/** Chains that are the backend's own: ours always, ufw's user chains when ufw is the backend. */
function isOwnChain(chain: string, backend: 'iptables' | 'ufw'): boolean {
  if (directionOfChain.has(chain) || chain === dockerChain) return true;
  return backend === 'ufw' && (/^ufw6?-user-/.test(chain) || chain === ufwBlocklistChain);
}

const ownJumps = new Set(
  [...Object.values(ownedChains), dockerChain, ufwBlocklistChain].map((chain) => `-j ${chain}`),
);

function ownerOfChain(chain: string): ForeignOwner | null {
  if (/^ufw6?-/.test(chain)) return 'ufw';
  return ownerOfName(chain, cooperatingChains);
}

/** The chain a line jumps or goes to, if any. */
function jumpTarget(tokens: string[]): string | undefined {
  const at = tokens.findIndex((token) => token === '-j' || token === '-g');
  return at === -1 ? undefined : tokens[at + 1];
}

function iptablesForeign(saved: Record<Family, string>, backend: 'iptables' | 'ufw'): ForeignRuleset {
  const foreign: ForeignRule[] = [];
  const policies: ChainPolicy[] = [];
  const ownJumpLines: ForeignRuleset['own_jumps'] = [];
  for (const family of ['ipv4', 'ipv6'] as const) {
    for (const table of parseIptablesSave(saved[family])) {
      for (const chain of table.chains) {
        if (chain.policy !== '-')
          policies.push({ family, table: table.name, chain: chain.name, policy: chain.policy });
      }
      const positions = new Map<string, number>();
      for (const line of table.rules) {
        const position = (positions.get(line.chain) ?? 0) + 1;
        positions.set(line.chain, position);
        if (isOwnChain(line.chain, backend)) continue;
        if (ownJumps.has(line.tokens.join(' '))) {
          if (table.name === 'filter') ownJumpLines.push({ family, chain: line.chain, position });
          continue;
        }
        const target = jumpTarget(line.tokens);
        const owner =
          ownerOfChain(line.chain) ?? (target === undefined ? null : ownerOfChain(target)) ?? 'unknown';
        foreign.push({ owner, family, table: table.name, chain: line.chain, rule: line.line, position });
      }
    }
  }
  return { foreign, policies, own_jumps: ownJumpLines };
}

/** `nft list table <family> <name>` text -> its rules (set and map bodies skipped). */
function nftTableRules(family: string, table: string, text: string): ForeignRule[] {
  const owner: ForeignOwner = ownerOfName(table, cooperatingTables) ?? 'unknown';
  const rules: ForeignRule[] = [];
  let depth = 0;
  let chain: string | null = null;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    const opens = (line.match(/\{/g) ?? []).length;
    const closes = (line.match(/\}/g) ?? []).length;
    if (depth === 1 && opens > closes)
      chain = line.startsWith('chain ') ? (line.split(/\s+/)[1] ?? null) : null;
    else if (
      depth === 2 &&
      chain !== null &&
      opens === closes &&
      line !== '' &&
      !/^(type|policy|comment|devices)\b/.test(line)
    ) {
      rules.push({ owner, family, table, chain, rule: line });
    }
    depth += opens - closes;
  }
  return rules;
}

/** Everything foreign in this kernel: iptables lines and the native nftables tables' rules. */
export async function readForeignRules(
  run: CommandRunner,
  saved: Record<Family, string>,
  backend: 'iptables' | 'ufw',
): Promise<ForeignRuleset> {
  const ruleset = iptablesForeign(saved, backend);
  const listed = await run(['nft', '-j', 'list', 'tables']).catch(() => null);
  if (listed === null || listed.code !== 0) return ruleset;
  for (const { family, name } of nativeTables(listed.stdout)) {
    const table = await run(['nft', 'list', 'table', family, name]).catch(() => null);
    if (table?.code === 0) ruleset.foreign.push(...nftTableRules(family, name, table.stdout));
  }
  return ruleset;
}
