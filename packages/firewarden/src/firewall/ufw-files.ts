/**
 * @module Where ufw keeps its state and whether it is active. The rules live in
 * `/etc/ufw/user.rules` and `user6.rules` (the `### tuple ###` lines), the switch in
 * `/etc/ufw/ufw.conf` (`ENABLED=yes`), policies in `/etc/default/ufw`. "Active" means both: the
 * switch is on and ufw's chains are loaded in this kernel (a fresh network namespace or a host
 * whose ufw never started has the switch but not the chains).
 */
import { readFile } from 'node:fs/promises';

export const ufwRulesFiles = { ipv4: '/etc/ufw/user.rules', ipv6: '/etc/ufw/user6.rules' } as const;

/** The script ufw's init runs before loading its rules (it creates the blocklists' sets). */
export const ufwBeforeInit = '/etc/ufw/before.init';

/** Where our blocklist rules live on ufw (a marked block, see `ufw-blocklist-rules.ts`). */
export const ufwBeforeRulesFiles = { ipv4: '/etc/ufw/before.rules', ipv6: '/etc/ufw/before6.rules' } as const;

/**
 * Everything a ufw restore point copies: the rules ufw writes, the files that shape them, and
 * the script ufw runs at its start (which creates the blocklists' sets).
 */
export const ufwStateFiles = [
  ufwRulesFiles.ipv4,
  ufwRulesFiles.ipv6,
  '/etc/ufw/ufw.conf',
  ufwBeforeRulesFiles.ipv4,
  ufwBeforeRulesFiles.ipv6,
  ufwBeforeInit,
  '/etc/ufw/after.rules',
  '/etc/ufw/after6.rules',
  '/etc/default/ufw',
] as const;

export function ufwEnabledIn(conf: string): boolean {
  return conf.split('\n').some((line) => /^\s*ENABLED\s*=\s*["']?yes["']?\s*$/i.test(line));
}

export async function ufwSwitchedOn(): Promise<boolean> {
  const conf = await readFile('/etc/ufw/ufw.conf', 'utf8').catch(() => '');
  return ufwEnabledIn(conf);
}

/** ufw's chains in an `iptables-save` output. */
export function ufwChainsLoaded(saveText: string): boolean {
  return saveText.includes('\n:ufw-user-input ');
}
