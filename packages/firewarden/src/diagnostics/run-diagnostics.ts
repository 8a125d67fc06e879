/**
 * @module Every diagnostic in one list, in the order a person reads them; `doctor`, `preflight`
 * and the diagnostics route differ only in which groups they include.
 */
import type { AuditLog } from '@suite/web-auth';
import type { Config } from '../config/schema.js';
import type { Check } from './check.js';
import { type DatabaseHandle, databaseChecks } from './database-checks.js';
import { agentCheck, backendCheck, configCheck, permissionsCheck, tlsCheck } from './host-checks.js';

interface DiagnosticsInput {
  config: Config;
  configFile: string | null;
  /** Null when the database could not be opened; `databaseProblem` says why. */
  database: DatabaseHandle | null;
  databaseProblem?: Omit<Check, 'name'>;
  /** Adds the firewall tool detection (preflight, diagnostics route). */
  includeBackend: boolean;
  /** Re-hash the whole audit chain (`doctor --full`) rather than what follows the last verified entry. */
  fullAuditVerify?: boolean;
  /**
   * The running server's audit log: verified with the key it writes with, recording how far the
   * verification got. Without it (the read-only CLI) the key and head files are read and nothing
   * is recorded.
   */
  audit?: AuditLog;
}

export async function runDiagnostics(input: DiagnosticsInput): Promise<Check[]> {
  const checks: Check[] = [configCheck(input.config, input.configFile), await tlsCheck(input.config)];
  checks.push(await permissionsCheck(input.config, input.configFile));
  if (input.database)
    checks.push(
      ...(await databaseChecks(input.database, {
        config: input.config,
        full: input.fullAuditVerify === true,
        audit: input.audit,
      })),
    );
  else
    checks.push({
      name: 'database',
      ...(input.databaseProblem ?? { status: 'fail', message: 'not opened' }),
    });
  if (input.includeBackend) checks.push(await backendCheck(input.config));
  checks.push(await agentCheck(input.config));
  return checks;
}
