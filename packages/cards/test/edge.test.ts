/**
 * @module The package entry stays importable on edge runtimes: no module reachable through
 * static imports from dist/index.js uses a Node built-in or a Node-only driver (they load
 * with dynamic import() only when a Node store is opened).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const entry = fileURLToPath(new URL('../dist/index.js', import.meta.url));
const nodeOnly = /^(node:|better-sqlite3$|pg$|ioredis$|@suite\/server-kit$|commander$)/;

/** Static `import ... from` / `export ... from` specifiers (not `import()`). */
function staticImports(source: string): string[] {
  return [...source.matchAll(/^(?:import|export)\s[^;]*?from\s+'([^']+)';/gms)].map((match) => match[1]!);
}

it('reaches no Node-only module through static imports from the package entry', () => {
  expect(existsSync(entry), 'run npm run build -w packages/cards first').toBe(true);
  const seen = new Set<string>();
  const offenders: string[] = [];
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const specifier of staticImports(readFileSync(file, 'utf8'))) {
      if (specifier.startsWith('.')) visit(resolve(dirname(file), specifier));
      else if (nodeOnly.test(specifier))
        offenders.push(`${file.slice(file.indexOf('dist/'))} -> ${specifier}`);
    }
  };
  visit(entry);
  expect(seen.size).toBeGreaterThan(20);
  expect(offenders).toEqual([]);
});
