/**
 * @module The agent's use of iptables for one family: read the whole ruleset (`iptables-save`),
 * dry-run a restore input (`--test`), and restore it in one atomic call. Tool names are fixed
 * here; only restore *input* comes from rules, and that input was rendered from validated rules.
 */
import type { Family } from '../engine/addresses.js';
import { AgentError } from './agent-error.js';
import type { CommandRunner } from './command-runner.js';

const tools: Record<Family, { save: string; restore: string }> = {
  ipv4: { save: 'iptables-save', restore: 'iptables-restore' },
  ipv6: { save: 'ip6tables-save', restore: 'ip6tables-restore' },
};

export const families: readonly Family[] = ['ipv4', 'ipv6'];

/** What an empty (never used) filter table looks like, for restoring a snapshot taken before any rule. */
export const emptyFilterTable =
  '*filter\n:INPUT ACCEPT [0:0]\n:FORWARD ACCEPT [0:0]\n:OUTPUT ACCEPT [0:0]\nCOMMIT\n';

export class IptablesBackend {
  constructor(private readonly run: CommandRunner) {}

  async save(family: Family): Promise<string> {
    const result = await this.run([tools[family].save]);
    if (result.code !== 0) {
      throw new AgentError('FW_COMMAND_FAILED', `${tools[family].save} failed`, {
        stderr: clip(result.stderr),
      });
    }
    return result.stdout;
  }

  /** Dry run; the error names the line iptables-restore refused. */
  async test(family: Family, input: string, noflush: boolean): Promise<{ ok: boolean; message: string }> {
    const result = await this.run([tools[family].restore, '--test', ...(noflush ? ['--noflush'] : [])], {
      input,
    });
    return { ok: result.code === 0, message: clip(result.stderr) };
  }

  async restore(family: Family, input: string, noflush: boolean): Promise<void> {
    const result = await this.run([tools[family].restore, ...(noflush ? ['--noflush'] : [])], { input });
    if (result.code !== 0) {
      throw new AgentError('FW_APPLY_FAILED', `${tools[family].restore} refused the ruleset`, {
        family,
        stderr: clip(result.stderr),
      });
    }
  }
}

/** Command output in an answer is capped: enough to see the error, never a flood. */
function clip(text: string): string {
  return text.length > 2_000 ? `${text.slice(0, 2_000)}…` : text;
}
