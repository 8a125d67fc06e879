/**
 * @module `firewarden tray`: no tray icon on purpose. firewarden runs on servers without a desktop
 * session; a tray would need a desktop user's display plus root (or polkit rules) for Restart and
 * Stop, and the maintained tray library ships prebuilt native helpers we would run unverified.
 * The command says so, prints what the menu would have offered, and exits with code 3.
 */
import type { Command } from 'commander';
import { type CommonOptions, commandContext } from './command-context.js';
import { printJson, printLines } from './output.js';

/** Exit code of `tray`: "not available on this platform", distinct from failures (1) and usage (2). */
export const trayUnavailableExitCode = 3;

export function registerTrayCommand(program: Command): void {
  program
    .command('tray')
    .description('why there is no tray icon, and what to use instead (exit 3)')
    .option('-c, --config <file.yaml>', 'configuration file (for the web UI address)')
    .option('--json', 'print JSON')
    .action((options: CommonOptions) => {
      const { server, tls } = commandContext(options).config;
      const host = server.bind === '0.0.0.0' || server.bind === '::' ? '127.0.0.1' : server.bind;
      const url = `${tls.enabled ? 'https' : 'http'}://${host.includes(':') ? `[${host}]` : host}:${server.port}/`;
      const reason =
        'firewarden has no tray icon: it runs as system services on servers without a desktop session';
      const instead = {
        open_web_ui: url,
        restart: 'sudo systemctl restart firewarden-agent firewarden',
        stop: 'sudo systemctl stop firewarden firewarden-agent',
      };
      if (options.json)
        printJson({ ok: false, error: { code: 'TRAY_UNAVAILABLE', message: reason }, ...instead });
      else
        printLines([
          `${reason}.`,
          `Open Web UI: ${instead.open_web_ui}`,
          `Restart:     ${instead.restart}`,
          `Stop:        ${instead.stop}`,
        ]);
      process.exitCode = trayUnavailableExitCode;
    });
}
