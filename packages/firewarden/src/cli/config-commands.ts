/**
 * @module `firewarden config validate --config <path>` and `firewarden service status`.
 */
import { insecureBindProblem } from '../config/bind-policy.js';
import { ConfigError } from '../config/config-error.js';
import { loadConfig } from '../config/load-config.js';
import { serviceStatus } from '../lifecycle/init-system.js';
import { type Output, printJson, printLines, reportFailure, table } from './output.js';

/** Exit 0 and the effective config when valid; exit 1 with every problem (key paths) when not. */
export function validateConfigCommand(file: string, output: Output, environment = process.env): void {
  try {
    const { config } = loadConfig({ file, environment });
    const warning = insecureBindProblem(config);
    if (warning) reportFailure(output, 'CONFIG_INVALID', warning);
    else if (output.json)
      printJson({ ok: true, file, config: { ...config, database: redactedDatabase(config.database) } });
    else printLines([`${file}: valid`]);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    reportFailure(output, 'CONFIG_INVALID', error.message);
  }
}

function redactedDatabase<T extends { postgres_dsn?: string }>(database: T): T {
  return database.postgres_dsn ? { ...database, postgres_dsn: '[redacted]' } : database;
}

export async function serviceStatusCommand(output: Output): Promise<void> {
  const status = await serviceStatus();
  if (output.json) return printJson({ ok: true, ...status });
  printLines([
    `init system: ${status.init_system}`,
    '',
    ...table(
      ['UNIT', 'LOADED', 'ACTIVE', 'ENABLED'],
      status.units.map((unit) => [unit.unit, unit.load_state, unit.active_state, unit.unit_file_state]),
    ),
  ]);
}
