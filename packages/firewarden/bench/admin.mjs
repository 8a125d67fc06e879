/**
 * @module Bench support: the environment the bins run with (no inherited FIREWARDEN_* variable)
 * and the first admin of a bench installation, created through the CLI.
 */
import { execFileSync } from 'node:child_process';

export const benchEnvironment = Object.fromEntries(
  Object.entries(process.env).filter(([key]) => !key.startsWith('FIREWARDEN_')),
);

export function createBenchAdmin(cli, config, password) {
  execFileSync(process.execPath, [cli, 'user', 'create-admin', '--config', config], {
    env: { ...benchEnvironment, FIREWARDEN_ADMIN_PASSWORD: password },
  });
}
