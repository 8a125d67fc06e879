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
 * Rules naming a blocklist (`@name`), which a ufw tuple cannot express, go into the marked block
 * of before.rules/before6.rules (`ufw-blocklist-rules.ts`), loaded into the kernel at once with
 * `iptables-restore --noflush` (ufw loads the same block at its next start); the blocklists'
 * sets are created at ufw's start by a block in before.init (`ufw-blocklist-hook.ts`).
 */
import { readFile, rename, stat, writeFile } from 'node:fs/promises';
import type { Family } from '../engine/addresses.js';
import { mergeFamilies } from '../engine/iptables-parse.js';
import { appliesToFamily, renderDockerTable } from '../engine/iptables-render.js';
import type { Rule } from '../engine/rule.js';
import { ufwDeleteArgs, ufwRuleArgs } from '../engine/ufw-args.js';
import {
  blockEditedByHand,
  blocklistRulesOf,
  hookChainInput,
  isBlocklistRule,
  ufwEffectiveOrder,
  withBlocklistBlock,
} from '../engine/ufw-blocklist-rules.js';
import { readUfwTuples } from '../engine/ufw-tuples.js';
import {
  ufwBeforeInit,
  ufwBeforeRulesFiles,
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
import { UfwBlocklistHook } from './ufw-blocklist-hook.js';

export class UfwBackend implements FirewallBackend {
  readonly kind = 'ufw';

  constructor(
    private readonly run: CommandRunner,
    /** ufw drives the `iptables` alternative; its save tools capture the kernel's side. */
    private readonly iptables: IptablesBackend,
    /** `firewall.docker_published_ports: follow`: inbound rules also govern Docker's published ports. */
    private readonly options: { followDocker: boolean } = { followDocker: false },
    /** The agent's state folder, where the copies of the blocklists' sets are kept for ufw's start. */
    stateDir: string,
  ) {
    this.setsMirror = new UfwBlocklistHook(stateDir);
  }

  readonly setsMirror: UfwBlocklistHook;

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
    return rulesOf(await readStateFiles());
  }

  async rulesIn(state: BackendState) {
    return rulesOf(state.ufw_files ?? {});
  }

  /** A write deletes only rules it read (by their own words): ufw keeps the lines we cannot read. */
  unmanagedLines(): string[] {
    return [];
  }

  async prepare(rules: Rule[], state: BackendState) {
    const files = state.ufw_files ?? {};
    const current = tuplesOf(files).rules;
    const tuples = rules.filter((rule) => !isBlocklistRule(rule));
    const same = (a: Rule | undefined, b: Rule | undefined) => JSON.stringify(a) === JSON.stringify(b);
    let kept = 0;
    while (kept < current.length && kept < tuples.length && same(current[kept], tuples[kept])) kept += 1;
    const deletes = current.slice(kept).reverse();
    const adds = tuples.slice(kept);
    for (const rule of adds) {
      const dry = await this.run(['ufw', '--dry-run', ...ufwRuleArgs(rule)]);
      if (dry.code !== 0) {
        throw new AgentError('FW_VALIDATION_FAILED', 'ufw --dry-run refused a rule', {
          errors: [
            {
              path: `rules.${rules.indexOf(rule)}`,
              code: 'backend_refused',
              message: clip((dry.stderr || dry.stdout).trim()),
            },
          ],
        });
      }
    }
    const before: [string, string][] = [];
    const handEdited: string[] = [];
    for (const family of families) {
      const file = ufwBeforeRulesFiles[family];
      const text = files[file];
      const wanted = text === undefined ? null : withBlocklistBlock(text, family, rules);
      if (wanted === null && rules.some(isBlocklistRule)) {
        throw new AgentError(
          'FW_APPLY_FAILED',
          `${file} has no *filter table to hold the rules naming blocklists`,
        );
      }
      if (wanted !== null && wanted !== text) {
        before.push([file, wanted]);
        if (text !== undefined && blockEditedByHand(text, family)) handEdited.push(file);
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
      // A rule may name a list set before the hook existed: its copy is made before a rule names it.
      await this.setsMirror.ensureCopies(state.blocklists ?? []);
      const saved = await saveHandEdits(handEdited);
      for (const [file, text] of before) await writeIfChanged(file, text);
      await this.loadBlocklistChains();
      for (const [family, input] of docker) await this.iptables.load(family, input, true);
      return saved;
    };
  }

  /** The kernel's firewarden-blocklists chains made what before*.rules say (ufw reloads them so). */
  private async loadBlocklistChains(): Promise<void> {
    for (const family of families) {
      const text = await readFile(ufwBeforeRulesFiles[family], 'utf8').catch(() => '');
      const input = hookChainInput(text, family, await this.iptables.save(family));
      if (input !== null) await this.iptables.load(family, input, true);
    }
  }

  async verify(rules: Rule[]): Promise<void> {
    const files = await readStateFiles();
    // With IPV6=no in /etc/default/ufw, ufw writes IPv4 rules only.
    const ipv6 = !ipv6Disabled(files['/etc/default/ufw'] ?? '');
    const blocklistRules = blocklistRulesOf(beforeRulesOf(files)).rules;
    if (JSON.stringify(blocklistRules) !== JSON.stringify(rules.filter(isBlocklistRule))) {
      throw new AgentError(
        'FW_APPLY_FAILED',
        'the blocklist rules in before*.rules differ from the rules applied',
      );
    }
    for (const family of families) {
      const expected = rules
        .filter((r) => !isBlocklistRule(r) && appliesToFamily(r, family) && (family === 'ipv4' || ipv6))
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
      if (content === undefined) continue;
      // before.init's execute bit goes with firewarden's block.
      if (file === ufwBeforeInit) await this.setsMirror.putInit(content);
      else await writeIfChanged(file, content);
    }
    // A point taken before the hook existed may lack before.init's block while lists exist.
    await this.setsMirror.writeInit();
    // Disabled ufw has no chains to rebuild: its rules are the files.
    if (ufwEnabledIn(state.ufw_files['/etc/ufw/ufw.conf'] ?? '')) await this.ufw(['reload']);
    // ufw reload leaves a chain its before*.rules no longer declare: ours goes where the point has no block.
    await this.loadBlocklistChains();
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

/** Our rules in ufw's files: the blocklist rules (checked first, from before-input), then the tuples. */
function tuplesOf(files: Record<string, string>) {
  const v4 = readUfwTuples(files[ufwRulesFiles.ipv4] ?? '', 'ipv4');
  const v6 = readUfwTuples(files[ufwRulesFiles.ipv6] ?? '', 'ipv6');
  return { rules: mergeFamilies(v4.rules, v6.rules), unparsed: [...v4.unparsed, ...v6.unparsed] };
}

function rulesOf(files: Record<string, string>) {
  const tuples = tuplesOf(files);
  const blocklists = blocklistRulesOf(beforeRulesOf(files));
  return {
    rules: ufwEffectiveOrder([...blocklists.rules, ...tuples.rules]),
    unparsed: [...blocklists.unparsed, ...tuples.unparsed],
  };
}

function beforeRulesOf(files: Record<string, string>): Record<Family, string> {
  return { ipv4: files[ufwBeforeRulesFiles.ipv4] ?? '', ipv6: files[ufwBeforeRulesFiles.ipv6] ?? '' };
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
/**
 * Each file whose marked block was edited by hand, copied as it is beside it
 * (`before.rules.firewarden-hand-edit-<time>`, same mode; ufw reads no such file) before the
 * write replaces the block: the edit is kept and named in the answer, not dropped unseen.
 */
async function saveHandEdits(files: readonly string[]): Promise<string[]> {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const saved: string[] = [];
  for (const file of files) {
    const copy = `${file}.firewarden-hand-edit-${stamp}`;
    const mode = (await stat(file)).mode & 0o777;
    await writeFile(copy, await readFile(file, 'utf8'), { mode, flag: 'wx' });
    saved.push(copy);
  }
  return saved;
}

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
