/**
 * @module Environment overrides (`FIREWARDEN_*`): each variable sets one config key and wins over
 * the file. Values are converted here and validated by the schema with the rest of the file.
 */
import { ConfigError } from './config-error.js';

/** `list`: comma-separated, blanks dropped. */
type Kind = 'string' | 'integer' | 'boolean' | 'list';

interface Override {
  variable: string;
  path: readonly [string, string];
  kind: Kind;
}

/** Every variable the service reads for its configuration (`FIREWARDEN_ADMIN_PASSWORD` is the CLI's). */
export const environmentOverrides: readonly Override[] = [
  { variable: 'FIREWARDEN_SERVER_BIND', path: ['server', 'bind'], kind: 'string' },
  { variable: 'FIREWARDEN_SERVER_PORT', path: ['server', 'port'], kind: 'integer' },
  { variable: 'FIREWARDEN_ALLOW_INSECURE_BIND', path: ['server', 'allow_insecure_bind'], kind: 'boolean' },
  { variable: 'FIREWARDEN_TRUSTED_PROXIES', path: ['server', 'trusted_proxies'], kind: 'list' },
  { variable: 'FIREWARDEN_TLS_ENABLED', path: ['tls', 'enabled'], kind: 'boolean' },
  { variable: 'FIREWARDEN_TLS_CERT', path: ['tls', 'cert_file'], kind: 'string' },
  { variable: 'FIREWARDEN_TLS_KEY', path: ['tls', 'key_file'], kind: 'string' },
  { variable: 'FIREWARDEN_DB_DRIVER', path: ['database', 'driver'], kind: 'string' },
  { variable: 'FIREWARDEN_DB_SQLITE_PATH', path: ['database', 'sqlite_path'], kind: 'string' },
  { variable: 'FIREWARDEN_DB_POSTGRES_DSN', path: ['database', 'postgres_dsn'], kind: 'string' },
  { variable: 'FIREWARDEN_FIREWALL_BACKEND', path: ['firewall', 'backend'], kind: 'string' },
  {
    variable: 'FIREWARDEN_SAFE_APPLY_TIMEOUT',
    path: ['firewall', 'safe_apply_timeout_seconds'],
    kind: 'integer',
  },
  { variable: 'FIREWARDEN_AGENT_SOCKET', path: ['agent', 'socket_path'], kind: 'string' },
  { variable: 'FIREWARDEN_LOG_LEVEL', path: ['logging', 'level'], kind: 'string' },
  { variable: 'FIREWARDEN_LOG_FORMAT', path: ['logging', 'format'], kind: 'string' },
  { variable: 'FIREWARDEN_LOG_FILE', path: ['logging', 'file_path'], kind: 'string' },
];

/** Keys (dotted) that the environment currently sets: the settings API reports them as locked. */
export function keysSetByEnvironment(environment: NodeJS.ProcessEnv): Set<string> {
  return new Set(
    environmentOverrides
      .filter(({ variable }) => (environment[variable] ?? '') !== '')
      .map(({ path }) => path.join('.')),
  );
}

/** Returns a copy of the raw file object with every set variable written into it. */
export function applyEnvironment(raw: Record<string, unknown>, environment: NodeJS.ProcessEnv) {
  const result: Record<string, unknown> = { ...raw };
  for (const { variable, path, kind } of environmentOverrides) {
    const text = environment[variable];
    if (text === undefined || text === '') continue;
    const [sectionName, key] = path;
    const current = result[sectionName];
    const section = isPlainObject(current) ? { ...current } : {};
    section[key] = convert(variable, text, kind);
    result[sectionName] = section;
  }
  return result;
}

const integerText = /^-?\d{1,9}$/;
const trueWords = new Set(['1', 'true', 'yes', 'on']);
const falseWords = new Set(['0', 'false', 'no', 'off']);

function convert(variable: string, text: string, kind: Kind): string | number | boolean | string[] {
  if (kind === 'string') return text;
  if (kind === 'list')
    return text
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item !== '');
  if (kind === 'integer') {
    if (!integerText.test(text))
      throw new ConfigError(`${variable}: must be an integer, got "${clip(text)}"`);
    return Number(text);
  }
  const word = text.toLowerCase();
  if (trueWords.has(word)) return true;
  if (falseWords.has(word)) return false;
  throw new ConfigError(`${variable}: must be true or false, got "${clip(text)}"`);
}

function clip(text: string) {
  return text.length > 40 ? `${text.slice(0, 40)}...` : text;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
