/**
 * @module `firewarden update check` (off unless `update.enabled: true`; answers "disabled") and
 * `firewarden update apply` (verified download, backup, restore point, swap, start, rollback).
 */
import type { Command } from 'commander';
import { installLayout } from '../lifecycle/layout.js';
import { applyUpdate } from '../update/apply-update.js';
import { checkForUpdate } from '../update/check-for-update.js';
import { UpdateError } from '../update/update-error.js';
import { appVersion } from '../version.js';
import { type CommandContext, type CommonOptions, commandContext } from './command-context.js';
import type { WithInstallation } from './extension-commands.js';
import { type Output, printJson, printLines, reportFailure } from './output.js';

export function registerUpdateCommands(program: Command, withInstallation: WithInstallation): void {
  const update = program.command('update').description('signed updates from update.url');
  withInstallation(
    update.command('check').description('is a newer release out? (only with update.enabled: true)'),
  ).action((options: CommonOptions) =>
    updateCheckCommand(commandContext(options), { json: Boolean(options.json) }),
  );
  withInstallation(
    update
      .command('apply')
      .description(
        'download, verify, back up, create a restore point, switch, and roll back if it does not start',
      ),
  )
    .option('--prefix <dir>', 'the installation root', '/')
    .action((options: CommonOptions & { prefix: string }) =>
      updateApplyCommand(commandContext(options), { json: Boolean(options.json) }, options.prefix),
    );
}

async function reportingUpdateErrors(output: Output, work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (error) {
    if (!(error instanceof UpdateError)) throw error;
    reportFailure(output, error.code, error.message);
  }
}

async function updateCheckCommand(context: CommandContext, output: Output): Promise<void> {
  const { enabled, url } = context.config.update;
  if (!enabled) {
    if (output.json) return printJson({ ok: true, status: 'disabled', current: appVersion });
    return printLines([
      'update checks are disabled (set update.enabled: true and update.url to turn them on)',
    ]);
  }
  if (!url)
    return reportFailure(
      output,
      'UPDATE_NOT_CONFIGURED',
      'update.enabled is true but update.url is not set',
      2,
    );
  await reportingUpdateErrors(output, async () => {
    const status = await checkForUpdate(url, appVersion);
    const state = status.available ? 'available' : 'up-to-date';
    if (output.json)
      return printJson({ ok: true, status: state, current: status.current, latest: status.latest });
    printLines([
      status.available
        ? `update available: ${status.current} -> ${status.latest} (signature verified); run firewarden update apply`
        : `up to date (${status.current}; latest ${status.latest})`,
    ]);
  });
}

async function updateApplyCommand(context: CommandContext, output: Output, prefix: string): Promise<void> {
  const { url } = context.config.update;
  if (!url)
    return reportFailure(output, 'UPDATE_NOT_CONFIGURED', 'set update.url in the configuration first', 2);
  if (prefix === '/' && process.getuid?.() !== 0) {
    return reportFailure(
      output,
      'ELEVATION_REQUIRED',
      'update apply needs root (sudo firewarden update apply)',
      4,
    );
  }
  await reportingUpdateErrors(output, async () => {
    const status = await checkForUpdate(url, appVersion);
    if (!status.available) {
      if (output.json) return printJson({ ok: true, status: 'up-to-date', current: status.current });
      return printLines([`up to date (${status.current})`]);
    }
    const result = await applyUpdate({
      layout: installLayout(prefix),
      config: context.config,
      configFile: context.configFile,
      status,
      progress: output.json ? undefined : (line) => printLines([line]),
    });
    if (output.json) return printJson({ ok: true, status: 'updated', ...result });
    printLines([`updated ${result.from} -> ${result.to}`]);
  });
}
