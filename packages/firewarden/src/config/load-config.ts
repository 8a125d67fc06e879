/**
 * @module Reads the YAML file, applies the `FIREWARDEN_*` overrides and validates the result;
 * every problem is reported with its key path (`server.colour: unknown key`).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { z } from 'zod';
import { ConfigError } from './config-error.js';
import { applyEnvironment, isPlainObject } from './env-overrides.js';
import { type Config, configSchema, defaultConfigPath } from './schema.js';

/** A config file larger than this is refused before YAML parsing (it is a few hundred bytes). */
const maxConfigBytes = 256 * 1024;

export interface LoadedConfig {
  config: Config;
  /** The file read, or null when none was given and the default location does not exist. */
  file: string | null;
}

interface LoadOptions {
  /** `--config`; without it the default location is read when it exists. */
  file?: string;
  environment?: NodeJS.ProcessEnv;
}

export function loadConfig({ file, environment = process.env }: LoadOptions = {}): LoadedConfig {
  const chosen = file ?? defaultConfigPath;
  const raw = readYamlObject(chosen, file !== undefined);
  const fromFile = raw === null ? {} : resolveFilePaths(raw, path.dirname(path.resolve(chosen)));
  const config = parseConfig(applyEnvironment(fromFile, environment), file ?? chosen);
  return { config: absolutePaths(config), file: raw === null ? null : chosen };
}

/** Validates a raw object; `where` prefixes every message. */
export function parseConfig(raw: unknown, where: string): Config {
  const result = configSchema.safeParse(raw);
  if (!result.success) throw new ConfigError(`${where}: ${formatIssues(result.error)}`);
  return result.data;
}

export function formatIssues(error: z.ZodError): string {
  return error.issues.map(describeIssue).join('; ');
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const at = issue.path.map(String).join('.');
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map((key) => `${at ? `${at}.` : ''}${key}: unknown key`).join('; ');
  }
  return `${at || '(root)'}: ${issue.message}`;
}

/** The parsed YAML mapping; null when the file is optional and absent. */
function readYamlObject(file: string, required: boolean): Record<string, unknown> | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (!required && code === 'ENOENT') return null;
    throw new ConfigError(`cannot read config file ${file}: ${code ?? (error as Error).message}`);
  }
  if (text.length > maxConfigBytes) throw new ConfigError(`${file}: larger than ${maxConfigBytes} bytes`);
  let raw: unknown;
  try {
    raw = parseYaml(text, { maxAliasCount: 100 });
  } catch (error) {
    throw new ConfigError(`${file}: not valid YAML: ${(error as Error).message.split('\n')[0]}`);
  }
  if (raw === null || raw === undefined) return {};
  if (!isPlainObject(raw)) throw new ConfigError(`${file}: (root): expected a mapping of sections`);
  return raw;
}

/** Keys holding paths: relative ones in the file are relative to the file's folder. */
const pathKeys = [
  ['tls', 'cert_file'],
  ['tls', 'key_file'],
  ['database', 'sqlite_path'],
  ['logging', 'file_path'],
  ['agent', 'socket_path'],
  ['audit', 'key_file'],
  ['audit', 'head_file'],
] as const;

function resolveFilePaths(raw: Record<string, unknown>, base: string): Record<string, unknown> {
  const result: Record<string, unknown> = { ...raw };
  for (const [sectionName, key] of pathKeys) {
    const section = result[sectionName];
    if (!isPlainObject(section) || typeof section[key] !== 'string' || section[key] === '') continue;
    result[sectionName] = { ...section, [key]: path.resolve(base, section[key]) };
  }
  return result;
}

/** What is still relative came from the environment: relative to the working directory. */
function absolutePaths(config: Config): Config {
  const absolute = (value: string | undefined) => value && path.resolve(value);
  return {
    ...config,
    tls: {
      ...config.tls,
      cert_file: absolute(config.tls.cert_file),
      key_file: absolute(config.tls.key_file),
    },
    database: { ...config.database, sqlite_path: path.resolve(config.database.sqlite_path) },
    logging: { ...config.logging, file_path: path.resolve(config.logging.file_path) },
    agent: { ...config.agent, socket_path: path.resolve(config.agent.socket_path) },
    audit: {
      ...config.audit,
      key_file: absolute(config.audit.key_file),
      head_file: absolute(config.audit.head_file),
    },
  };
}
