/**
 * @module The iptables backend, with the tools of the variant in use (nf_tables or legacy): our
 * rules live only in our FIREWARDEN-* chains; a write is one `iptables-restore --noflush` per
 * family after a `--test` dry run; a restore point is the full `iptables-save` of both families,
 * and restoring it puts back our chains and their jumps as they were, leaving every other rule
 * as it is now (another tool's change since the point is not ours to undo). Tool names are fixed here; only restore
 * *input* comes from rules, and that input was rendered from validated rules.
 */
import type { Family } from '../engine/addresses.js';
import { builtinChainOf, dockerChain, dockerUserChain, ownedChains } from '../engine/iptables-chains.js';
import {
  mergeFamilies,
  parseIptablesSave,
  readOwnedRules,
  type SaveTable,
} from '../engine/iptables-parse.js';
import { appliesToFamily, renderOwnedTable } from '../engine/iptables-render.js';
import { directions, type Rule } from '../engine/rule.js';
import { AgentError } from './agent-error.js';
import type { CommandRunner } from './command-runner.js';
import { type BackendState, clip, type FirewallBackend } from './firewall-backend.js';
import type { IptablesTools } from './iptables-variant.js';

export const families: readonly Family[] = ['ipv4', 'ipv6'];

export class IptablesBackend implements FirewallBackend {
  readonly kind = 'iptables';

  constructor(
    private readonly run: CommandRunner,
    readonly tools: IptablesTools,
    /** `firewall.docker_published_ports: follow`: inbound rules also govern Docker's published ports. */
    private readonly options: { followDocker: boolean } = { followDocker: false },
  ) {}

  async save(family: Family): Promise<string> {
    const tool = this.tools.save[family];
    const result = await this.run([tool]);
    if (result.code !== 0) {
      throw new AgentError('FW_COMMAND_FAILED', `${tool} failed`, { stderr: clip(result.stderr) });
    }
    return result.stdout;
  }

  async saveAll(): Promise<Record<Family, string>> {
    const [ipv4, ipv6] = await Promise.all(families.map((family) => this.save(family)));
    return { ipv4: ipv4!, ipv6: ipv6! };
  }

  async capture(): Promise<BackendState> {
    return { iptables: await this.saveAll() };
  }

  async describe(saved: Record<Family, string>) {
    return {
      variant: this.tools.variant,
      owned_chains_present: families.every((family) => saved[family].includes(':FIREWARDEN-INPUT ')),
    };
  }

  async readRules(saved: Record<Family, string>) {
    const v4 = readOwnedRules(saved.ipv4, 'ipv4');
    const v6 = readOwnedRules(saved.ipv6, 'ipv6');
    return { rules: mergeFamilies(v4.rules, v6.rules), unparsed: [...v4.unparsed, ...v6.unparsed] };
  }

  rulesIn(state: BackendState) {
    return this.readRules(state.iptables);
  }

  /** A write declares our chains, which flushes them: every line we cannot read back goes. */
  unmanagedLines(state: BackendState): string[] {
    const lines = families.flatMap((family) => readOwnedRules(state.iptables[family], family).unparsed);
    return [...new Set(lines)];
  }

  async prepare(rules: Rule[], state: BackendState) {
    const inputs = { ipv4: '', ipv6: '' };
    for (const family of families) {
      inputs[family] = renderOwnedTable(rules, family, state.iptables[family], this.options);
      await this.dryRun(family, inputs[family]);
    }
    return async () => {
      for (const family of families) await this.load(family, inputs[family], true);
      return [];
    };
  }

  async verify(rules: Rule[]): Promise<void> {
    const saved = await this.saveAll();
    for (const family of families) {
      const expected = directions.flatMap((direction) =>
        rules
          .filter((r) => r.direction === direction && appliesToFamily(r, family))
          .map((r) => ({ ...r, family })),
      );
      const actual = readOwnedRules(saved[family], family).rules.map((r) => ({ ...r, family }));
      if (JSON.stringify(actual) !== JSON.stringify(expected)) {
        throw new AgentError(
          'FW_APPLY_FAILED',
          `the ${family} rules read back differ from the rules applied`,
        );
      }
    }
  }

  async restore(state: BackendState): Promise<void> {
    for (const family of families) {
      await this.load(family, ownedRestoreInput(state.iptables[family], await this.save(family)), true);
    }
  }

  /** `iptables-restore --test --noflush`: the input is refused before anything is written. */
  async dryRun(family: Family, input: string): Promise<void> {
    const test = await this.run([this.tools.restore[family], '--test', '--noflush'], { input });
    if (test.code !== 0) {
      throw new AgentError('FW_VALIDATION_FAILED', `iptables-restore --test refused the ${family} rules`, {
        errors: [{ path: 'rules', code: 'backend_refused', message: clip(test.stderr) }],
      });
    }
  }

  async load(family: Family, input: string, noflush: boolean): Promise<void> {
    const tool = this.tools.restore[family];
    const result = await this.run([tool, ...(noflush ? ['--noflush'] : [])], { input });
    if (result.code !== 0) {
      throw new AgentError('FW_APPLY_FAILED', `${tool} refused the ruleset`, {
        family,
        stderr: clip(result.stderr),
      });
    }
  }
}

/**
 * `--noflush` input that makes our chains and their jumps what they were in `saved`, from the
 * state `current` (both `iptables-save` outputs of one family). Declaring a chain flushes it; a
 * chain the point did not have loses its jumps and is deleted. No other line is named. `docker`
 * limits it to FIREWARDEN-DOCKER (the ufw backend, whose other rules ufw restores).
 */
export function ownedRestoreInput(saved: string, current: string, only: 'all' | 'docker' = 'all'): string {
  const filter = (text: string) => parseIptablesSave(text).find((table) => table.name === 'filter');
  const then = filter(saved);
  const now = filter(current);
  const has = (table: SaveTable | undefined, chain: string) =>
    table?.chains.some((c) => c.name === chain) ?? false;
  const jumps = (table: SaveTable | undefined, builtin: string, chain: string) =>
    table?.rules.filter((r) => r.chain === builtin && r.tokens.join(' ') === `-j ${chain}`).length ?? 0;
  // Our chains and the chain each is jumped to from; Docker's only while Docker's chain exists.
  const pairs: [string, string][] = [
    ...(only === 'all'
      ? directions.map((direction): [string, string] => [builtinChainOf[direction], ownedChains[direction]])
      : []),
    ...(has(now, dockerUserChain) ? [[dockerUserChain, dockerChain] as [string, string]] : []),
  ];
  const lines = ['*filter'];
  const removed: string[] = [];
  for (const [, chain] of pairs) {
    if (has(then, chain) || has(now, chain)) lines.push(`:${chain} - [0:0]`);
    if (has(now, chain) && !has(then, chain)) removed.push(chain);
  }
  for (const [builtin, chain] of pairs) {
    const wanted = Math.min(jumps(then, builtin, chain), 1);
    const present = jumps(now, builtin, chain);
    if (wanted === 1 && present === 0) lines.push(`-I ${builtin} 1 -j ${chain}`);
    for (let extra = present; extra > wanted; extra -= 1) lines.push(`-D ${builtin} -j ${chain}`);
  }
  const owned = new Set(pairs.map(([, chain]) => chain));
  for (const rule of then?.rules ?? []) if (owned.has(rule.chain)) lines.push(rule.line);
  for (const chain of removed) lines.push(`-X ${chain}`);
  lines.push('COMMIT', '');
  return lines.join('\n');
}
