/**
 * @module The ufw backend: rules are written through ufw's own commands (one argv element per
 * word, never a shell) and read back from the `### tuple ###` lines of user.rules/user6.rules.
 * A write keeps the rules the new list starts with, deletes the rest (`ufw --force delete
 * <rule>`, last first) and appends the new tail (`ufw <rule>`), after a `ufw --dry-run` of every
 * rule it adds. A restore point holds ufw's files besides `iptables-save`; restoring writes the
 * files back and runs `ufw reload`, which rebuilds ufw's chains from them.
 * With `firewall.docker_published_ports: follow`, where Docker's DOCKER-USER chain exists, a
 * write also fills our FIREWARDEN-DOCKER chain (one `iptables-restore --noflush` after ufw's
 * commands, dry-run first; ufw's input rules never see forwarded traffic), and restoring a point
 * puts that chain back from the point's `iptables-save`: ufw reload never touches it.
 */
import { readFile, rename, stat, writeFile } from 'node:fs/promises';
import type { Family } from '../engine/addresses.js';
import { mergeFamilies } from '../engine/iptables-parse.js';
import { appliesToFamily, renderDockerTable } from '../engine/iptables-render.js';
import type { Rule } from '../engine/rule.js';
import { ufwDeleteArgs, ufwRuleArgs } from '../engine/ufw-args.js';
import { readUfwTuples } from '../engine/ufw-tuples.js';
import {
  ufwChainsLoaded,
  ufwEnabledIn,
  ufwRulesFiles,
  ufwStateFiles,
  ufwSwitchedOn,
} from '../firewall/ufw-files.js';
import { AgentError } from './agent-error.js';
import type { CommandRunner } from './command-runner.js';
import { type BackendState, clip, type FirewallBackend } from './firewall-backend.js';
import { families, type IptablesBackend, ownedRestoreInput } from './iptables-backend.js';

export class UfwBackend implements FirewallBackend {
  readonly kind = 'ufw';

  constructor(
    private readonly run: CommandRunner,
    /** ufw drives the `iptables` alternative; its save tools capture the kernel's side. */
    private readonly iptables: IptablesBackend,
    /** `firewall.docker_published_ports: follow`: inbound rules also govern Docker's published ports. */
    private readonly options: { followDocker: boolean } = { followDocker: false },
  ) {}

  saveAll() {
    return this.iptables.saveAll();
  }

  async capture(): Promise<BackendState> {
    const [iptables, ufw_files] = await Promise.all([this.iptables.saveAll(), readStateFiles()]);
    return { iptables, ufw_files };
  }

  async describe(saved: Record<Family, string>) {
    const loaded = ufwChainsLoaded(saved.ipv4);
    return {
      variant: this.iptables.tools.variant,
      ufw_active: loaded && (await ufwSwitchedOn()),
      owned_chains_present: loaded,
    };
  }

  async readRules() {
    return tuplesOf(await readStateFiles());
  }

  async rulesIn(state: BackendState) {
    return tuplesOf(state.ufw_files ?? {});
  }

  /** A write deletes only rules it read (by their own words): ufw keeps the lines we cannot read. */
  unmanagedLines(): string[] {
    return [];
  }

  async prepare(rules: Rule[], state: BackendState) {
    const current = tuplesOf(state.ufw_files ?? {}).rules;
    const same = (a: Rule | undefined, b: Rule | undefined) => JSON.stringify(a) === JSON.stringify(b);
    let kept = 0;
    while (kept < current.length && kept < rules.length && same(current[kept], rules[kept])) kept += 1;
    const deletes = current.slice(kept).reverse();
    const adds = rules.slice(kept);
    for (const [index, rule] of adds.entries()) {
      const dry = await this.run(['ufw', '--dry-run', ...ufwRuleArgs(rule)]);
      if (dry.code !== 0) {
        throw new AgentError('FW_VALIDATION_FAILED', 'ufw --dry-run refused a rule', {
          errors: [
            {
              path: `rules.${kept + index}`,
              code: 'backend_refused',
              message: clip((dry.stderr || dry.stdout).trim()),
            },
          ],
        });
      }
    }
    const docker: [Family, string][] = [];
    for (const family of this.options.followDocker ? families : []) {
      const input = renderDockerTable(rules, family, state.iptables[family]);
      if (input === null) continue;
      await this.iptables.dryRun(family, input);
      docker.push([family, input]);
    }
    return async () => {
      for (const rule of deletes) await this.ufw(['--force', ...ufwDeleteArgs(rule)]);
      for (const rule of adds) await this.ufw(ufwRuleArgs(rule));
      for (const [family, input] of docker) await this.iptables.load(family, input, true);
    };
  }

  async verify(rules: Rule[]): Promise<void> {
    const files = await readStateFiles();
    // With IPV6=no in /etc/default/ufw, ufw writes IPv4 rules only.
    const ipv6 = !ipv6Disabled(files['/etc/default/ufw'] ?? '');
    for (const family of families) {
      const expected = rules
        .filter((r) => appliesToFamily(r, family) && (family === 'ipv4' || ipv6))
        .map((r) => ({ ...r, family }));
      const actual = readUfwTuples(files[ufwRulesFiles[family]] ?? '', family).rules.map((r) => ({
        ...r,
        family,
      }));
      if (JSON.stringify(actual) !== JSON.stringify(expected)) {
        throw new AgentError(
          'FW_APPLY_FAILED',
          `the ${family} rules ufw wrote differ from the rules applied`,
        );
      }
    }
  }

  async restore(state: BackendState): Promise<void> {
    if (state.ufw_files === undefined) {
      throw new AgentError('FW_APPLY_FAILED', 'this restore point holds no ufw files (taken on iptables)');
    }
    // Only ufw's own files, whatever a tampered restore point names.
    for (const file of ufwStateFiles) {
      const content = state.ufw_files[file];
      if (content !== undefined) await writeIfChanged(file, content);
    }
    // Disabled ufw has no chains to rebuild: its rules are the files.
    if (ufwEnabledIn(state.ufw_files['/etc/ufw/ufw.conf'] ?? '')) await this.ufw(['reload']);
    // ufw never touches DOCKER-USER: our FIREWARDEN-DOCKER chain is put back as in the point.
    for (const family of families) {
      const input = ownedRestoreInput(state.iptables[family], await this.iptables.save(family), 'docker');
      await this.iptables.load(family, input, true);
    }
  }

  private async ufw(args: string[]): Promise<void> {
    const result = await this.run(['ufw', ...args]);
    if (result.code !== 0) {
      throw new AgentError('FW_APPLY_FAILED', `ufw ${args[0] === '--force' ? args[1] : args[0]} failed`, {
        output: clip(`${result.stderr}${result.stdout}`.trim()),
      });
    }
  }
}

function tuplesOf(files: Record<string, string>) {
  const v4 = readUfwTuples(files[ufwRulesFiles.ipv4] ?? '', 'ipv4');
  const v6 = readUfwTuples(files[ufwRulesFiles.ipv6] ?? '', 'ipv6');
  return { rules: mergeFamilies(v4.rules, v6.rules), unparsed: [...v4.unparsed, ...v6.unparsed] };
}

/** The ufw files that exist now, path -> content. */
async function readStateFiles(): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const file of ufwStateFiles) {
    const content = await readFile(file, 'utf8').catch(() => null);
    if (content !== null) files[file] = content;
  }
  return files;
}

/** Written beside the file then renamed over it, keeping its mode: never a half-written rules file. */
async function writeIfChanged(file: string, content: string): Promise<void> {
  const now = await readFile(file, 'utf8').catch(() => null);
  if (now === content) return;
  const mode = (await stat(file).catch(() => null))?.mode ?? 0o640;
  await writeFile(`${file}.firewarden-tmp`, content, { mode: mode & 0o777 });
  await rename(`${file}.firewarden-tmp`, file);
}

/** `IPV6=no` (any case, optional quotes and spaces) on a line of ufw's defaults file. */
export function ipv6Disabled(defaults: string): boolean {
  return defaults.split('\n').some((line) => {
    const equals = line.indexOf('=');
    if (equals < 0 || line.slice(0, equals).trim() !== 'IPV6') return false;
    const value = line
      .slice(equals + 1)
      .trim()
      .toLowerCase();
    return value === 'no' || value === '"no"' || value === "'no'";
  });
}
