/**
 * @module `firewarden blocklist list|show|set|delete`: blocklists straight through the agent's
 * socket, like `restore` (root or the socket's group; works while the web server is down). `set`
 * reads one entry a line from a file or stdin (`-`), `#` comments and blank lines ignored, checks
 * and merges them as the API does, and applies at once (no safe apply: no one would be left to
 * confirm it). Over SSH, a list that would cut the operator's own address off (`SSH_CONNECTION`)
 * is refused unless `--acknowledge-lockout`, as the API refuses it for its session.
 */
import { readFile, stat } from 'node:fs/promises';
import type { Command } from 'commander';
import {
  type Blocklist,
  type BlocklistFamily,
  blocklistBounds,
  blocklistFamilies,
} from '../engine/blocklist.js';
import { mergeBlocklistEntries } from '../engine/blocklist-entries.js';
import { readBlocklistFile } from '../engine/blocklist-file.js';
import {
  agentBlocklistChange,
  type BlocklistRequest,
  type CurrentRuleset,
  sessionLockoutRisks,
} from '../transactions/session-lockout.js';
import type { CommandContext, CommonOptions } from './command-context.js';
import { commandContext } from './command-context.js';
import { type Output, printJson, printLines, reportFailure, table } from './output.js';
import { askAgent, fileRetention } from './restore-commands.js';

interface SetOptions extends CommonOptions {
  file: string;
  family: BlocklistFamily;
  comment?: string;
  acknowledgeLockout?: boolean;
}

export function registerBlocklistCommands(
  program: Command,
  withInstallation: (command: Command) => Command,
): void {
  const blocklist = program
    .command('blocklist')
    .description('named blocklists (kernel sets), through the agent');
  const output = (options: CommonOptions): Output => ({ json: Boolean(options.json) });
  withInstallation(
    blocklist.command('list').description('every blocklist with its number of entries'),
  ).action((options: CommonOptions) => listCommand(commandContext(options), output(options)));
  withInstallation(
    blocklist.command('show').description("a blocklist's entries, one a line").argument('<name>'),
  ).action((name: string, options: CommonOptions) =>
    showCommand(commandContext(options), output(options), name),
  );
  withInstallation(
    blocklist
      .command('set')
      .description('replace a blocklist (created if new) with the entries of a file, one a line')
      .argument('<name>')
      .requiredOption('--file <file>', 'the entries, one a line ("-" reads stdin; "#" starts a comment)')
      .option('--family <family>', `${blocklistFamilies.join(', ')}`, 'both')
      .option('--comment <text>', 'what the list is')
      .option('--acknowledge-lockout', 'apply even if the list cuts this SSH session off'),
  ).action((name: string, options: SetOptions) =>
    setCommand(commandContext(options), output(options), name, options),
  );
  withInstallation(
    blocklist.command('delete').description('delete a blocklist no rule names').argument('<name>'),
  ).action((name: string, options: CommonOptions) =>
    deleteCommand(commandContext(options), output(options), name),
  );
}

async function listCommand(context: CommandContext, output: Output) {
  const answer = await askAgent<{
    blocklists: { name: string; family: string; comment: string | null; entries: number }[];
  }>(context, output, 'blocklists');
  if (!answer) return;
  if (output.json) return printJson({ ok: true, blocklists: answer.blocklists });
  if (answer.blocklists.length === 0) return printLines(['no blocklists']);
  printLines(
    table(
      ['NAME', 'FAMILY', 'ENTRIES', 'COMMENT'],
      answer.blocklists.map((list) => [list.name, list.family, String(list.entries), list.comment ?? '']),
    ),
  );
}

async function showCommand(context: CommandContext, output: Output, name: string) {
  const answer = await askAgent<{ blocklist: Blocklist }>(context, output, 'blocklists', { name });
  if (!answer) return;
  const { entries, ...list } = answer.blocklist;
  const flat = [...entries.ipv4, ...entries.ipv6];
  if (output.json) return printJson({ ok: true, blocklist: { ...list, entries: flat } });
  printLines([
    `# ${list.name} (${list.family}, ${flat.length} entries)${list.comment ? `: ${list.comment}` : ''}`,
    ...flat,
  ]);
}

async function setCommand(context: CommandContext, output: Output, name: string, options: SetOptions) {
  if (!blocklistFamilies.includes(options.family)) {
    return reportFailure(
      output,
      'VALIDATION_FAILED',
      `--family must be one of ${blocklistFamilies.join(', ')}`,
    );
  }
  const text = await readEntries(options.file);
  if (text === null) {
    return reportFailure(
      output,
      'FW_BLOCKLIST_TOO_LARGE',
      `a blocklist file may be at most ${blocklistBounds.bytesPerList} bytes`,
    );
  }
  const lines = readBlocklistFile(text).entries;
  if (lines.length > blocklistBounds.entriesPerList) {
    return reportFailure(
      output,
      'FW_BLOCKLIST_TOO_LARGE',
      `a blocklist may hold at most ${blocklistBounds.entriesPerList} entries (${lines.length} given)`,
    );
  }
  const merged = mergeBlocklistEntries(lines, options.family, 'line');
  if (!merged.ok) {
    // Lines are counted from 1 among the entries (comments and blank lines left out).
    const shown = merged.errors
      .slice(0, 5)
      .map(
        (e) =>
          `entry ${Number(e.path.slice('line.'.length)) + 1} (${lines[Number(e.path.slice('line.'.length))]}): ${e.message}`,
      );
    return reportFailure(
      output,
      'FW_VALIDATION_FAILED',
      `${merged.invalid} entries are invalid: ${shown.join('; ')}`,
    );
  }
  const list = { name, family: options.family, comment: options.comment ?? null, entries: merged.entries };
  const change: BlocklistRequest = { op: 'set', list, merged };
  if (!(await lockoutAllows(context, output, change, Boolean(options.acknowledgeLockout)))) return;
  const applied = await askAgent<{ snapshot_id: string }>(context, output, 'apply', {
    blocklists: agentBlocklistChange(change),
    ...fileRetention(context),
  });
  if (!applied) return;
  const result = {
    name,
    entries: merged.stored,
    received: merged.received,
    restore_point_id: applied.snapshot_id,
  };
  if (output.json) return printJson({ ok: true, blocklist: result });
  printLines([
    `blocklist ${name}: ${merged.stored} entries (${merged.received} received, duplicates and overlaps merged); the state before is restore point ${applied.snapshot_id}`,
  ]);
}

async function deleteCommand(context: CommandContext, output: Output, name: string) {
  const applied = await askAgent<{ snapshot_id: string }>(context, output, 'apply', {
    blocklists: { delete: [name] },
    ...fileRetention(context),
  });
  if (!applied) return;
  if (output.json) return printJson({ ok: true, deleted: name, restore_point_id: applied.snapshot_id });
  printLines([`blocklist ${name} deleted; the state before is restore point ${applied.snapshot_id}`]);
}

/** The file's text, or null past the byte bound; `-` reads stdin. */
async function readEntries(file: string): Promise<string | null> {
  if (file !== '-') {
    if ((await stat(file)).size > blocklistBounds.bytesPerList) return null;
    return readFile(file, 'utf8');
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin) {
    size += (chunk as Buffer).length;
    if (size > blocklistBounds.bytesPerList) return null;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Over SSH, whether the change leaves the operator's own address able to reach SSH and the web port. */
async function lockoutAllows(
  context: CommandContext,
  output: Output,
  change: BlocklistRequest,
  acknowledged: boolean,
) {
  const peer = process.env.SSH_CONNECTION?.split(' ')[0];
  if (peer === undefined || peer === '' || acknowledged) return true;
  const current = await askAgent<CurrentRuleset>(context, output, 'read_rules', { address: peer });
  if (!current) return false;
  const risks = sessionLockoutRisks(
    current,
    { rules: current.rules, dropped: [], blocklist: change },
    { address: peer, managementPort: context.config.server.port },
  );
  if (risks.length === 0) return true;
  reportFailure(
    output,
    'FW_LOCKOUT_RISK',
    `${risks.map((risk) => risk.message).join('; ')} (SSH_CONNECTION): pass --acknowledge-lockout to apply anyway`,
  );
  return false;
}
