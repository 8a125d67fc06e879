#!/usr/bin/env node
/**
 * @module The `firewarden` command: `serve` runs the API; the others inspect or prepare an
 * installation. Every command takes `--json` for machines; errors exit non-zero with one line.
 */
import { Command, InvalidArgumentError } from 'commander';
import {
  adminPasswordVariable,
  changeAccountCommand,
  createAdminCommand,
  migrateCommand,
  passwordCommand,
  unlockCommand,
} from './cli/admin-commands.js';
import { type AgentCommandOptions, agentCommand } from './cli/agent-command.js';
import { registerBlocklistCommands } from './cli/blocklist-commands.js';
import { type CommonOptions, commandContext } from './cli/command-context.js';
import { serviceStatusCommand, validateConfigCommand } from './cli/config-commands.js';
import { doctorCommand, preflightCommand, statusCommand } from './cli/diagnose-commands.js';
import { exposureCommand } from './cli/exposure-command.js';
import { registerExtensionCommands } from './cli/extension-commands.js';
import { reportFailure } from './cli/output.js';
import { restoreApplyCommand, restoreCreateCommand, restoreListCommand } from './cli/restore-commands.js';
import { registerTrayCommand } from './cli/tray-command.js';
import { registerUninstallCommand } from './cli/uninstall-command.js';
import { registerUpdateCommands } from './cli/update-commands.js';
import { ConfigError } from './config/config-error.js';
import { defaultConfigPath } from './config/schema.js';
import { SandboxUnavailable, startSandbox } from './sandbox/sandbox-agent.js';
import { runServer } from './server/run-server.js';
import { MigrationError } from './store/migrate.js';
import { appVersion } from './version.js';

function portNumber(text: string): number {
  const port = Number(text);
  if (!/^\d{1,5}$/.test(text) || port > 65_535) throw new InvalidArgumentError('must be 0-65535');
  return port;
}

const program = new Command()
  .name('firewarden')
  .description('Host firewall manager: web API, CLI, users, audit; ufw/iptables through a privileged agent.')
  .version(appVersion)
  .showHelpAfterError();

/** `--config`, `--data-dir` and `--json`, which every command that reads the installation takes. */
const withInstallation = (command: Command) =>
  command
    .option('-c, --config <file.yaml>', `configuration file (default ${defaultConfigPath} when it exists)`)
    .option('--data-dir <dir>', 'keep the SQLite database and the log in this folder')
    .option('--json', 'print JSON');

withInstallation(program.command('serve').description('serve the web API'))
  .option('--host <address>', 'address to listen on (overrides server.bind)')
  .option('--port <port>', 'port to listen on, 0 for any free port (overrides server.port)', portNumber)
  .option(
    '--sandbox',
    'run the agent in a throwaway network namespace with demo rules (the host is never touched)',
  )
  .action(async (options: CommonOptions & { host?: string; port?: number; sandbox?: boolean }) => {
    const context = commandContext(options);
    const server = { ...context.config.server };
    if (options.host !== undefined) server.bind = options.host;
    if (options.port !== undefined) server.port = options.port;
    const agent = { ...context.config.agent };
    if (options.sandbox) {
      const sandbox = await startSandboxOrSay(options);
      if (sandbox === null) return;
      agent.socket_path = sandbox.socketPath;
    }
    await runServer({
      config: { ...context.config, server, agent },
      configFile: context.configFile,
      environment: process.env,
    });
  });

/** Starts the sandbox's agent and says what it is, or why it cannot run (exit 2). */
async function startSandboxOrSay(options: CommonOptions) {
  try {
    const sandbox = await startSandbox(process.argv[1]!);
    process.once('exit', sandbox.stop);
    // Read by GET /api/v1/version, which the UI shows as "sandbox" on every page.
    process.env.FIREWARDEN_SANDBOX = '1';
    const dataDir = options.dataDir ? ` --data-dir ${options.dataDir}` : '';
    console.error(
      `sandbox: the agent runs in ${sandbox.description} with demo rules; the host's firewall is never touched\n` +
        `sandbox: first admin: FIREWARDEN_ADMIN_PASSWORD='<12+ characters>' npx firewarden user create-admin${dataDir}`,
    );
    return sandbox;
  } catch (error) {
    if (!(error instanceof SandboxUnavailable)) throw error;
    reportFailure(
      { json: Boolean(options.json) },
      'SANDBOX_UNAVAILABLE',
      `cannot start the sandbox: ${error.message}`,
      2,
    );
    return null;
  }
}

withInstallation(
  program.command('status').description('summary of the installation, database, backend and agent'),
)
  .option(
    '--exposure',
    'every listening socket and whether the firewall lets the outside reach it (asks the agent)',
  )
  .action((options: CommonOptions & { exposure?: boolean }) =>
    (options.exposure ? exposureCommand : statusCommand)(commandContext(options), {
      json: Boolean(options.json),
    }),
  );

withInstallation(program.command('doctor').description('read-only diagnostics (exit 1 when a check fails)'))
  .option('--prefix <dir>', 'the installation root whose release tree is checked', '/')
  .option('--full', 're-hash the whole audit chain, not only the entries since the last verification')
  .action((options: CommonOptions & { prefix: string; full?: boolean }) =>
    doctorCommand(commandContext(options), { json: Boolean(options.json) }, options.prefix, options.full),
  );

withInstallation(
  program.command('preflight').description('doctor plus firewall tool detection, Node version and port'),
).action((options: CommonOptions) =>
  preflightCommand(commandContext(options), { json: Boolean(options.json) }),
);

const service = program.command('service').description('the systemd units');
service
  .command('status')
  .description('detected init system and the state of the server and agent units')
  .option('--json', 'print JSON')
  .action((options: { json?: boolean }) => serviceStatusCommand({ json: Boolean(options.json) }));

const config = program.command('config').description('the configuration file');
config
  .command('validate')
  .description('check a configuration file (unknown keys and bad values are reported with their path)')
  .requiredOption('-c, --config <file.yaml>', 'file to check')
  .option('--json', 'print JSON')
  .action((options: { config: string; json?: boolean }) =>
    validateConfigCommand(options.config, { json: Boolean(options.json) }),
  );

const db = program.command('db').description('the database');
withInstallation(db.command('migrate').description('apply pending migrations')).action(
  (options: CommonOptions) => migrateCommand(commandContext(options), { json: Boolean(options.json) }),
);

const user = program.command('user').description('users');
withInstallation(
  user
    .command('create-admin')
    .description(`create an admin; the password is read from ${adminPasswordVariable} only`),
)
  .option('-u, --username <name>', 'username', 'admin')
  .action((options: CommonOptions & { username: string }) =>
    createAdminCommand(commandContext(options), { json: Boolean(options.json) }, options.username),
  );

for (const [name, disabled] of [
  ['disable', true],
  ['enable', false],
] as const) {
  withInstallation(
    user
      .command(`${name} <username>`)
      .description(disabled ? 'disable a user and end their sessions at once' : 'enable a disabled user'),
  ).action((username: string, options: CommonOptions) =>
    changeAccountCommand(commandContext(options), { json: Boolean(options.json) }, username, { disabled }),
  );
}
withInstallation(
  user.command('role <username> <role>').description("set a user's role (admin or viewer)"),
).action((username: string, role: string, options: CommonOptions) =>
  changeAccountCommand(commandContext(options), { json: Boolean(options.json) }, username, { role }),
);
withInstallation(
  user
    .command('password <username>')
    .description(`set a user's password from ${adminPasswordVariable} and end their sessions`),
).action((username: string, options: CommonOptions) =>
  passwordCommand(commandContext(options), { json: Boolean(options.json) }, username),
);
withInstallation(
  user.command('unlock <username>').description("forget a username's failed sign-ins (lifts its lock)"),
).action((username: string, options: CommonOptions) =>
  unlockCommand(commandContext(options), { json: Boolean(options.json) }, username),
);

withInstallation(
  program.command('agent').description('the privileged firewall agent (root; its own systemd unit)'),
)
  .option('--group <name|gid>', 'group allowed on the socket (default: firewarden when it exists)')
  .option(
    '--state-dir <dir>',
    'restore points and the pending transaction (default /var/lib/firewarden-agent)',
  )
  .action((options: CommonOptions & AgentCommandOptions) =>
    agentCommand(commandContext(options), options, { json: Boolean(options.json) }),
  );

const restore = program.command('restore').description('restore points, through the agent');
withInstallation(restore.command('create').description('save the current firewall as a manual restore point'))
  .option('--name <name>', 'a name shown in the list')
  .action((options: CommonOptions & { name?: string }) =>
    restoreCreateCommand(commandContext(options), { json: Boolean(options.json) }, options.name),
  );
withInstallation(restore.command('list').description('restore points, newest first')).action(
  (options: CommonOptions) => restoreListCommand(commandContext(options), { json: Boolean(options.json) }),
);
withInstallation(
  restore.command('apply').description('restore the firewall to a restore point').argument('<id>'),
).action((id: string, options: CommonOptions) =>
  restoreApplyCommand(commandContext(options), { json: Boolean(options.json) }, id),
);

registerBlocklistCommands(program, withInstallation);
registerExtensionCommands(program, withInstallation);
registerUninstallCommand(program);
registerTrayCommand(program);
registerUpdateCommands(program, withInstallation);

const wantsJson = process.argv.includes('--json');
program.parseAsync().catch((error: unknown) => {
  if (error instanceof ConfigError)
    return reportFailure({ json: wantsJson }, 'CONFIG_INVALID', error.message, 2);
  if (error instanceof MigrationError)
    return reportFailure({ json: wantsJson }, 'DB_MIGRATION', error.message, 2);
  const message = error instanceof Error ? error.message : String(error);
  reportFailure({ json: wantsJson }, 'ERROR', message, 1);
});
