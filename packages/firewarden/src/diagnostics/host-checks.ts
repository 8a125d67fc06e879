/**
 * @module Diagnostics that need no database: configuration, TLS files, file permissions, the
 * firewall tools and the agent socket. All read-only.
 */
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import path from 'node:path';
import { probeAgent } from '../agent-protocol/agent-probe.js';
import { insecureBindProblem, isLoopbackHost } from '../config/bind-policy.js';
import type { Config } from '../config/schema.js';
import { defaultConfigPath } from '../config/schema.js';
import { detectBackend } from '../firewall/backend-detection.js';
import type { Check } from './check.js';

export function configCheck(config: Config, file: string | null): Check {
  const problem = insecureBindProblem(config);
  const source = file ?? `defaults (no file at ${defaultConfigPath})`;
  if (problem) return { name: 'config', status: 'fail', message: problem, details: { file: source } };
  const exposed = !isLoopbackHost(config.server.bind);
  return {
    name: 'config',
    status: exposed && !config.tls.enabled ? 'warn' : 'ok',
    message:
      exposed && !config.tls.enabled
        ? `valid; listens on ${config.server.bind} WITHOUT TLS (opted in)`
        : 'valid',
    details: {
      file: source,
      bind: config.server.bind,
      port: config.server.port,
      tls: config.tls.enabled,
      database: config.database.driver,
      backend: config.firewall.backend,
    },
  };
}

export async function tlsCheck(config: Config): Promise<Check> {
  if (!config.tls.enabled) return { name: 'tls', status: 'ok', message: 'disabled' };
  const problems: string[] = [];
  for (const [label, file] of [
    ['certificate', config.tls.cert_file],
    ['key', config.tls.key_file],
  ] as const) {
    try {
      await access(file ?? '', constants.R_OK);
    } catch {
      problems.push(`${label} ${file} is not readable`);
    }
  }
  const keyMode = await modeOf(config.tls.key_file ?? '');
  if (keyMode !== null && (keyMode & 0o077) !== 0)
    problems.push(`key ${config.tls.key_file} is readable by others`);
  return problems.length === 0
    ? { name: 'tls', status: 'ok', message: 'certificate and key readable' }
    : { name: 'tls', status: 'fail', message: problems.join('; ') };
}

export async function permissionsCheck(config: Config, file: string | null): Promise<Check> {
  const warnings: string[] = [];
  const failures: string[] = [];
  if (process.getuid?.() === 0)
    warnings.push('running as root: the server needs no privileges (the agent does)');
  const configMode = file ? await modeOf(file) : null;
  if (configMode !== null && (configMode & 0o002) !== 0)
    failures.push(`config ${file} is writable by everyone`);
  if (config.database.driver === 'sqlite') {
    const dbMode = await modeOf(config.database.sqlite_path);
    if (dbMode !== null && (dbMode & 0o004) !== 0)
      warnings.push(`database ${config.database.sqlite_path} is readable by everyone`);
  }
  const logFolder = path.dirname(config.logging.file_path);
  if (!(await isWritable(config.logging.file_path)) && !(await isWritable(logFolder))) {
    failures.push(`log file ${config.logging.file_path} cannot be written`);
  }
  const status = failures.length > 0 ? 'fail' : warnings.length > 0 ? 'warn' : 'ok';
  const message = [...failures, ...warnings].join('; ') || 'files and process rights as expected';
  return { name: 'permissions', status, message, details: { uid: process.getuid?.() ?? null } };
}

export async function backendCheck(config: Config): Promise<Check> {
  const detection = await detectBackend(config.firewall.backend);
  if (!detection.selected) {
    return {
      name: 'backend',
      status: 'warn',
      message:
        config.firewall.backend === 'auto'
          ? 'neither ufw nor iptables is installed'
          : `${config.firewall.backend} is not installed`,
      details: { ...detection },
    };
  }
  const conflicts = detection.possible_conflicts;
  return {
    name: 'backend',
    status: conflicts.length > 0 ? 'warn' : 'ok',
    message:
      conflicts.length > 0
        ? `${detection.selected}; also installed: ${conflicts.join(', ')} (the agent checks which one is active)`
        : `${detection.selected}`,
    details: { ...detection },
  };
}

export async function agentCheck(config: Config): Promise<Check> {
  const probe = await probeAgent(config.agent.socket_path);
  return probe.connected
    ? {
        name: 'agent',
        status: 'ok',
        message: `socket ${probe.socket_path} accepts connections`,
        details: { ...probe },
      }
    : {
        name: 'agent',
        status: 'warn',
        message: `agent not connected (${probe.reason}) at ${probe.socket_path}: firewall routes answer FW_AGENT_UNAVAILABLE`,
        details: { ...probe },
      };
}

async function modeOf(file: string): Promise<number | null> {
  try {
    return (await stat(file)).mode & 0o777;
  } catch {
    return null;
  }
}

async function isWritable(file: string): Promise<boolean> {
  try {
    await access(file, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}
