/**
 * @module `firewarden tray`: a tray icon on the desktop session's D-Bus (the StatusNotifierItem
 * protocol with a dbusmenu menu, spoken by a pure-JavaScript client), showing the firewall's
 * state and a pending safe apply's countdown, with Open Web UI, Restart, Stop and Quit. Without a
 * session bus or a tray host it says so and exits 3.
 */
import type { Command } from 'commander';
import { detectInitSystem } from '../lifecycle/init-system.js';
import { runTray } from '../tray/run-tray.js';
import { sessionBusAddress } from '../tray/session-bus.js';
import { TrayUnavailable } from '../tray/tray-unavailable.js';
import { type CommonOptions, commandContext } from './command-context.js';
import { reportFailure } from './output.js';

/** Exit code of `tray`: "not available here" (no session bus or no tray host), distinct from failures (1) and usage (2). */
const trayUnavailableExitCode = 3;

export function registerTrayCommand(program: Command): void {
  program
    .command('tray')
    .description(
      'tray icon (StatusNotifierItem): firewall state, Open Web UI, Restart, Stop, Quit (exit 3 without a session bus or tray host)',
    )
    .option('-c, --config <file.yaml>', 'configuration file (web UI address, agent socket)')
    .option('--json', 'print JSON errors')
    .action(async (options: CommonOptions) => {
      const { server, tls, agent } = commandContext(options).config;
      const host = server.bind === '0.0.0.0' || server.bind === '::' ? '127.0.0.1' : server.bind;
      const webUiUrl = `${tls.enabled ? 'https' : 'http'}://${host.includes(':') ? `[${host}]` : host}:${server.port}/`;
      try {
        await runTray({
          busAddress: sessionBusAddress(process.env),
          webUiUrl,
          agentSocket: agent.socket_path,
          initSystem: detectInitSystem(),
          say: (line) => process.stdout.write(`${line}\n`),
          warn: (line) => process.stderr.write(`firewarden tray: ${line}\n`),
        });
      } catch (error) {
        if (!(error instanceof TrayUnavailable)) throw error;
        reportFailure(
          { json: Boolean(options.json) },
          'TRAY_UNAVAILABLE',
          error.message,
          trayUnavailableExitCode,
        );
      }
    });
}
