/**
 * @module `firewarden extension install <dir>` (validates `extension.yaml`, checks `min_app`,
 * asks per capability on a terminal, or takes `--grant`/`--yes`), `extension list` and
 * `extension remove <id>`. Install and remove need elevated rights; every change is audited.
 */
import { userInfo } from 'node:os';
import { createWebAuth } from '@suite/web-auth';
import type { Command } from 'commander';
import semver from 'semver';
import { firewardenAuditChain } from '../audit/audit-chain-files.js';
import { type GrantableCapability, grantableCapabilities } from '../extensions/capabilities.js';
import { ExtensionError } from '../extensions/extension-error.js';
import { createExtensionStore, type ExtensionStore } from '../extensions/extension-store.js';
import { grantsAfterUpdate } from '../extensions/grant-scopes.js';
import { installRightsProblem } from '../extensions/install-rights.js';
import { loadManifest, type Manifest } from '../extensions/manifest.js';
import { escapeUnsafeCharacters, escapeUnsafeInJson } from '../extensions/unsafe-characters.js';
import { prepareDatabase } from '../server/prepare-database.js';
import type { Database } from '../store/database.js';
import { openDatabase } from '../store/open-database.js';
import { appVersion } from '../version.js';
import { type CommandContext, type CommonOptions, commandContext } from './command-context.js';
import { type Output, printLines, reportFailure as reportRaw, table } from './output.js';
import { saidYes, terminalQuestions } from './terminal-questions.js';

/** Adds `withInstallation`'s options (`--config`, `--data-dir`, `--json`) to a command. */
export type WithInstallation = (command: Command) => Command;

export function registerExtensionCommands(program: Command, withInstallation: WithInstallation): void {
  const extension = program.command('extension').description('declarative extensions and their capabilities');
  withInstallation(
    extension
      .command('install')
      .description(
        'install or update an extension from a folder holding extension.yaml (root or data-dir owner)',
      )
      .argument('<dir>'),
  )
    .option('--grant <capability>', 'grant this capability without asking (repeatable)', collect, [])
    .option('-y, --yes', 'grant every capability the extension declares, without asking')
    .action((dir: string, options: CommonOptions & { grant: string[]; yes?: boolean }) =>
      extensionInstallCommand(commandContext(options), { json: Boolean(options.json) }, dir, {
        grant: options.grant,
        yes: Boolean(options.yes),
      }),
    );
  withInstallation(extension.command('list').description('installed extensions and their grants')).action(
    (options: CommonOptions) =>
      extensionListCommand(commandContext(options), { json: Boolean(options.json) }),
  );
  withInstallation(
    extension.command('remove').description('remove an extension and its grants').argument('<id>'),
  ).action((id: string, options: CommonOptions) =>
    extensionRemoveCommand(commandContext(options), { json: Boolean(options.json) }, id),
  );
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/*
 * What these commands print can come from a manifest (stored before control and bidi characters
 * were refused at install): every such character reaches the terminal escaped, as text.
 */
const safeLines = (lines: string[]) => printLines(lines.map(escapeUnsafeCharacters));
const safeJson = (value: unknown): void => {
  process.stdout.write(`${escapeUnsafeInJson(JSON.stringify(value, null, 2))}\n`);
};
const reportFailure = (output: Output, code: string, message: string, exitCode?: number) =>
  reportRaw(output, code, escapeUnsafeCharacters(message), exitCode);

interface InstallOptions {
  /** Capabilities granted without asking (repeatable `--grant`). */
  grant: string[];
  /** Grant every declared capability without asking. */
  yes: boolean;
}

type Audit = (action: string, target: string, detail: Record<string, unknown>) => Promise<unknown>;

/** Opens the database (migrated), runs `work` with the store and an audit writer, closes it. */
async function withStore(
  context: CommandContext,
  output: Output,
  work: (store: ExtensionStore, audit: Audit, actor: string) => Promise<void>,
): Promise<void> {
  const opened = openDatabase<Database>(context.config.database);
  try {
    await prepareDatabase(opened, { ...context.config.database, migrate_on_start: true }, Date.now);
    const auth = createWebAuth({
      db: opened.db,
      dialect: opened.dialect,
      audit: firewardenAuditChain(context.config),
    });
    const actor = `cli:${userInfo().username}`;
    const audit: Audit = (action, target, detail) =>
      auth.audit.append({ actor, action, target, outcome: 'success', detail: detail as never });
    await work(createExtensionStore(opened.db), audit, actor);
  } catch (error) {
    if (!(error instanceof ExtensionError)) throw error;
    reportFailure(output, error.code, error.message);
  } finally {
    await opened.db.destroy();
  }
}

function refuseWithoutRights(context: CommandContext, output: Output): boolean {
  const problem = installRightsProblem(context.config, context.configFile);
  if (problem) reportFailure(output, 'ELEVATION_REQUIRED', problem, 4);
  return problem !== null;
}

async function extensionInstallCommand(
  context: CommandContext,
  output: Output,
  dir: string,
  options: InstallOptions,
): Promise<void> {
  if (refuseWithoutRights(context, output)) return;
  let manifest: Manifest;
  let text: string;
  try {
    ({ manifest, text } = loadManifest(dir));
  } catch (error) {
    if (!(error instanceof ExtensionError)) throw error;
    return reportFailure(output, error.code, error.message, 2);
  }
  if (!semver.gte(appVersion, manifest.min_app)) {
    return reportFailure(
      output,
      'EXTENSION_APP_TOO_OLD',
      `${manifest.id} ${manifest.version} needs firewarden ${manifest.min_app} or newer (this is ${appVersion})`,
    );
  }
  const undeclared = options.grant.filter((capability) => !manifest.capabilities.includes(capability));
  if (undeclared.length > 0) {
    return reportFailure(
      output,
      'EXTENSION_CAPABILITY_UNDECLARED',
      `--grant ${undeclared.join(', ')}: not declared by ${manifest.id} (it declares ${manifest.capabilities.join(', ') || 'none'})`,
    );
  }
  await withStore(context, output, async (store, audit, actor) => {
    const previous = (await store.list()).find((extension) => extension.id === manifest.id);
    // A grant whose sources the update changes is asked again, like a new one.
    const { kept } = grantsAfterUpdate(
      previous?.manifest ?? null,
      manifest,
      previous?.grants.map((grant) => grant.capability) ?? [],
    );
    const toAsk = manifest.capabilities.filter((capability) => !kept.includes(capability));
    const chosen = await chooseGrants(toAsk as GrantableCapability[], options, output);
    const result = await store.install(manifest, text, actor);
    for (const capability of chosen) await store.grant(manifest.id, capability, actor);
    const extension = await store.get(manifest.id);
    const granted = extension.grants.map((grant) => grant.capability);
    const denied = manifest.capabilities.filter((capability) => !granted.includes(capability));
    await audit('extensions.install', manifest.id, {
      version: manifest.version,
      previous_version: result.previousVersion,
      manifest_sha256: extension.manifest_sha256,
      granted: chosen,
      dropped_grants: result.droppedGrants,
    });
    if (output.json) {
      return safeJson({
        ok: true,
        extension: { id: manifest.id, version: manifest.version, previous_version: result.previousVersion },
        granted,
        denied,
      });
    }
    safeLines([
      result.previousVersion
        ? `updated ${manifest.id} ${result.previousVersion} -> ${manifest.version}`
        : `installed ${manifest.id} ${manifest.version}`,
      `granted: ${granted.join(', ') || 'none'}`,
      ...(denied.length > 0
        ? [`not granted: ${denied.join(', ')} (an admin can grant them in the web UI or the API)`]
        : []),
    ]);
  });
}

/** `--yes`: every capability; `--grant`: those named; on a terminal: asked one by one; else none. */
async function chooseGrants(
  capabilities: GrantableCapability[],
  options: InstallOptions,
  output: Output,
): Promise<GrantableCapability[]> {
  if (options.yes) return capabilities;
  if (options.grant.length > 0)
    return capabilities.filter((capability) => options.grant.includes(capability));
  if (!process.stdin.isTTY || output.json || capabilities.length === 0) return [];
  const questions = terminalQuestions();
  try {
    const chosen: GrantableCapability[] = [];
    for (const capability of capabilities) {
      const answer = await questions.ask(
        `Grant ${capability} (${grantableCapabilities[capability]})? [y/N] `,
      );
      if (answer === null) break; // end of input: the rest stay denied
      if (saidYes(answer)) chosen.push(capability);
    }
    return chosen;
  } finally {
    questions.close();
  }
}

async function extensionListCommand(context: CommandContext, output: Output): Promise<void> {
  await withStore(context, output, async (store) => {
    const extensions = await store.list();
    if (output.json) {
      return safeJson({
        ok: true,
        extensions: extensions.map((extension) => ({
          ...extension.manifest,
          manifest_sha256: extension.manifest_sha256,
          installed_at: extension.installed_at,
          granted: extension.grants.map((grant) => grant.capability),
        })),
      });
    }
    if (extensions.length === 0) return safeLines(['no extensions installed']);
    safeLines(
      table(
        ['ID', 'VERSION', 'AUTHOR', 'WIDGETS', 'GRANTED', 'NOT GRANTED'],
        extensions.map(({ manifest, grants }) => {
          const granted = grants.map((grant) => grant.capability);
          // Escaped before the columns are measured, so the table stays aligned.
          return [
            manifest.id,
            manifest.version,
            manifest.author,
            String(manifest.widgets.length),
            granted.join(',') || '-',
            manifest.capabilities.filter((capability) => !granted.includes(capability)).join(',') || '-',
          ].map(escapeUnsafeCharacters);
        }),
      ),
    );
  });
}

async function extensionRemoveCommand(context: CommandContext, output: Output, id: string): Promise<void> {
  if (refuseWithoutRights(context, output)) return;
  await withStore(context, output, async (store, audit) => {
    const extension = await store.get(id);
    await store.remove(id);
    await audit('extensions.remove', id, { version: extension.manifest.version });
    if (output.json) safeJson({ ok: true, removed: id });
    else safeLines([`removed ${id} ${extension.manifest.version} and its grants`]);
  });
}
