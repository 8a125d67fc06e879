/**
 * @module Which iptables the host uses: `iptables -V` ends in "(nf_tables)" or "(legacy)". The
 * agent then saves and restores with the matching pair (Debian ships both, `iptables-nft-save`
 * and `iptables-legacy-save`, behind the `iptables` alternative); a host with only the generic
 * names uses those. Mixing them would read one kernel ruleset and write the other.
 */
import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import path from 'node:path';
import type { Family } from '../engine/addresses.js';
import type { CommandRunner } from './command-runner.js';
import { minimalEnvironment } from './command-runner.js';

export type IptablesVariant = 'nf_tables' | 'legacy';

export interface IptablesTools {
  variant: IptablesVariant;
  /** The `iptables -V` line it was decided from. */
  version: string;
  save: Record<Family, string>;
  restore: Record<Family, string>;
}

/** Reads the variant from a version line; null when the line names neither. */
export function variantOfVersion(line: string): IptablesVariant | null {
  if (line.includes('(nf_tables)')) return 'nf_tables';
  if (line.includes('(legacy)')) return 'legacy';
  return null;
}

export async function detectIptablesTools(run: CommandRunner): Promise<IptablesTools> {
  const result = await run(['iptables', '-V']);
  const version = result.stdout.trim().split('\n')[0] ?? '';
  // iptables before 1.8 had no nf_tables flavour and prints no variant: that is legacy.
  const variant = variantOfVersion(version) ?? 'legacy';
  const suffix = variant === 'nf_tables' ? 'nft' : 'legacy';
  const tool = async (family: Family, action: 'save' | 'restore') => {
    const base = family === 'ipv4' ? 'iptables' : 'ip6tables';
    const specific = `${base}-${suffix}-${action}`;
    return (await installed(specific)) ? specific : `${base}-${action}`;
  };
  return {
    variant,
    version,
    save: { ipv4: await tool('ipv4', 'save'), ipv6: await tool('ipv6', 'save') },
    restore: { ipv4: await tool('ipv4', 'restore'), ipv6: await tool('ipv6', 'restore') },
  };
}

/** Looked up in the same folders the command runner's PATH names. */
async function installed(name: string): Promise<boolean> {
  for (const folder of (minimalEnvironment.PATH ?? '').split(':')) {
    try {
      await access(path.join(folder, name), constants.X_OK);
      return true;
    } catch {
      // not in this folder
    }
  }
  return false;
}
