/**
 * @module No Node-only module is reachable from `createApp` or the edge entries: each is
 * bundled the way a Workers deploy bundles it (static and dynamic imports followed) and the
 * bundler's module list and remaining imports are checked.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { bundleForWorkers, workerEntry } from '../../scripts/bundle-worker.mjs';

/** Packages that need Node (native addons, sockets, process streams) or are the Node adapter. */
const nodeOnlyPackages = [
  'better-sqlite3',
  'pg',
  'ioredis',
  'pino',
  'pino-pretty',
  '@hono/node-server',
  '@suite/server-kit',
  'commander',
];

const require = createRequire(import.meta.url);
const source = (path: string) => fileURLToPath(new URL(`../../src/${path}`, import.meta.url));

/** The `name` of the package a file belongs to (nearest package.json), so workspace links count. */
function packageOf(file: string): string | undefined {
  for (let folder = dirname(file); folder !== dirname(folder); folder = dirname(folder)) {
    const manifest = join(folder, 'package.json');
    if (existsSync(manifest)) return (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name;
  }
  return undefined;
}

/** Node built-ins imported by the bundle, and Node-only packages inlined into it. */
async function nodeOnlyReach(entry: string): Promise<string[]> {
  const { moduleIds, externals } = await bundleForWorkers(entry);
  const inlined = moduleIds
    .filter((id) => id.startsWith('/'))
    .map(packageOf)
    .filter((name): name is string => name !== undefined && nodeOnlyPackages.includes(name));
  return [...new Set([...externals, ...inlined])].sort();
}

describe("createApp's import graph", () => {
  it.each([
    ['createApp', source('app.ts')],
    ['the Workers entry', workerEntry],
  ])('%s reaches no Node-only module', async (_name, entry) => {
    expect(await nodeOnlyReach(entry)).toEqual([]);
  });

  it('finds them where they are (the check is not blind)', async () => {
    // anafanafo's own loader requires fs (why the metrics are read from its data instead).
    expect(await nodeOnlyReach(require.resolve('anafanafo'))).toContain('node:fs');
    // The Node store opener loads node:fs, better-sqlite3, pg and ioredis with import().
    const reached = await nodeOnlyReach(source('store/open-visitor-store.ts'));
    expect(reached).toEqual(expect.arrayContaining(['better-sqlite3', 'ioredis', 'node:fs', 'pg']));
    expect(await nodeOnlyReach(source('cli.ts'))).toEqual(
      expect.arrayContaining(['@suite/server-kit', 'commander']),
    );
  });
});
