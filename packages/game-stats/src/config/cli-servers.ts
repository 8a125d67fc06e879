/**
 * @module The servers of a repeated `--server-dir`: `name=dir` names one, a bare folder is named
 * after its base name (lower-cased, other characters as `-`, `-2`, `-3`... when taken).
 */
import path from 'node:path';
import { ConfigError } from './load-config.js';
import { type NetworkServerConfig, serverNamePattern } from './schema.js';

/** `survival=/srv/mc/survival`: only when the part before `=` is a valid server name. */
const namedFolder = /^([^=/\\]+)=(.+)$/;

/** Whether a `--server-dir` value is `name=dir` (a bare folder is not). */
export function namesAServer(flag: string): boolean {
  return namedFolder.test(flag);
}

export function serversFromFlags(flags: readonly string[]): NetworkServerConfig[] {
  const named = flags.map((flag) => {
    const match = namedFolder.exec(flag);
    if (match && serverNamePattern.test(match[1]!)) return { name: match[1]!, dir: match[2]! };
    if (match)
      throw new ConfigError(
        `--server-dir ${flag}: invalid server name "${match[1]}" (lower-case letters, digits, _ and -, at most 32)`,
      );
    return { name: undefined, dir: flag };
  });
  const taken = new Set<string>();
  for (const { name } of named) {
    if (name === undefined) continue;
    if (taken.has(name)) throw new ConfigError(`--server-dir: duplicate server name "${name}"`);
    taken.add(name);
  }
  return named.map(({ name, dir }) => {
    let own = name;
    if (own === undefined) {
      const base = nameOfFolder(dir);
      own = base;
      for (let suffix = 2; taken.has(own); suffix++) own = `${base.slice(0, 28)}-${suffix}`;
      taken.add(own);
    }
    return { name: own, 'server-dir': path.resolve(dir) };
  });
}

function nameOfFolder(dir: string): string {
  const name = path
    .basename(path.resolve(dir))
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^[-_]+/, '')
    .slice(0, 32);
  return name === '' ? 'server' : name;
}
