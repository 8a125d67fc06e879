/** @module The daemon's name and version, read from its package.json (one source of truth). */
import { readFileSync } from 'node:fs';

const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  name: string;
  version: string;
};

export const packageName = manifest.name;
export const packageVersion = manifest.version;
