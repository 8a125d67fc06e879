/**
 * @module `firewarden uninstall`: asks what to keep (configuration, database, logs) on a
 * terminal, or takes `--keep-*` / `--purge` with `--yes`; removes the rest and never touches
 * firewall rules. `--prefix` works on an installation under another root (tests, images).
 */
import type { Command } from 'commander';
import { installLayout } from '../lifecycle/layout.js';
import { type KeepChoice, runUninstall, type UninstallStep, uninstallPlan } from '../lifecycle/uninstall.js';
import { type Output, printJson, printLines, reportFailure } from './output.js';
import { saidNo, saidYes, type TerminalQuestions, terminalQuestions } from './terminal-questions.js';

interface UninstallOptions {
  keepConfig?: boolean;
  keepDatabase?: boolean;
  keepLogs?: boolean;
  purge?: boolean;
  yes?: boolean;
  dryRun?: boolean;
  prefix: string;
  json?: boolean;
}

const parts: [keyof KeepChoice, string][] = [
  ['config', 'the configuration (/etc/firewarden)'],
  ['database', 'the database and restore points (/var/lib/firewarden, /var/lib/firewarden-agent)'],
  ['logs', 'the logs (/var/log/firewarden)'],
];

export function registerUninstallCommand(program: Command): void {
  program
    .command('uninstall')
    .description('remove firewarden; asks what to keep; never touches firewall rules')
    .option('--keep-config', 'keep /etc/firewarden')
    .option('--keep-database', 'keep the database and the agent restore points')
    .option('--keep-logs', 'keep /var/log/firewarden')
    .option('--purge', 'keep nothing')
    .option(
      '-y, --yes',
      'do not ask: keep what --keep-* names (everything when none is given and no --purge)',
    )
    .option('--dry-run', 'print what would be removed and kept, change nothing')
    .option('--prefix <dir>', 'the installation root', '/')
    .option('--json', 'print JSON')
    .action((options: UninstallOptions) => uninstallCommand(options, { json: Boolean(options.json) }));
}

async function uninstallCommand(options: UninstallOptions, output: Output): Promise<void> {
  const flagged = options.keepConfig || options.keepDatabase || options.keepLogs;
  if (options.purge && flagged)
    return reportFailure(output, 'USAGE', '--purge and --keep-* exclude each other', 2);
  if (options.prefix === '/' && process.getuid?.() !== 0) {
    return reportFailure(output, 'ELEVATION_REQUIRED', 'uninstall needs root (sudo firewarden uninstall)', 4);
  }
  const layout = installLayout(options.prefix);
  const interactive = Boolean(process.stdin.isTTY) && !options.yes && !output.json;
  const questions = interactive ? terminalQuestions() : null;
  try {
    let keep: KeepChoice;
    if (options.purge) keep = { config: false, database: false, logs: false };
    else if (flagged) {
      keep = {
        config: Boolean(options.keepConfig),
        database: Boolean(options.keepDatabase),
        logs: Boolean(options.keepLogs),
      };
    } else if (options.yes || options.dryRun) keep = { config: true, database: true, logs: true };
    else if (questions) keep = await askWhatToKeep(questions);
    else {
      return reportFailure(
        output,
        'USAGE',
        'uninstall asks what to keep: run it on a terminal, or pass --yes with --keep-config/--keep-database/--keep-logs or --purge',
        2,
      );
    }
    const plan = uninstallPlan(layout, keep);
    if (options.dryRun) return report(plan, output, true);
    if (questions) {
      printLines(describe(plan));
      const answer = await questions.ask('Remove firewarden now? Firewall rules stay as they are. [y/N] ');
      if (!saidYes(answer)) return reportFailure(output, 'ABORTED', 'nothing removed', 1);
    }
    await runUninstall(layout, plan);
    report(plan, output, false);
  } finally {
    questions?.close();
  }
}

async function askWhatToKeep(questions: TerminalQuestions): Promise<KeepChoice> {
  const keep: KeepChoice = { config: true, database: true, logs: true };
  for (const [part, label] of parts) keep[part] = !saidNo(await questions.ask(`Keep ${label}? [Y/n] `));
  return keep;
}

function describe(plan: UninstallStep[]): string[] {
  const verbs = {
    'stop-units': 'stop and disable',
    remove: 'remove',
    keep: 'keep',
    'remove-user': 'remove user and group',
  };
  return plan.map((step) => `  ${verbs[step.action]} ${step.target}`);
}

function report(plan: UninstallStep[], output: Output, dryRun: boolean) {
  if (output.json) return printJson({ ok: true, dry_run: dryRun, steps: plan, firewall_rules: 'untouched' });
  printLines([
    dryRun ? 'firewarden uninstall would:' : 'firewarden uninstalled:',
    ...describe(plan),
    'firewall rules: untouched (the rules in force stay as they are)',
  ]);
}
