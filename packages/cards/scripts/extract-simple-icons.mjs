/**
 * @module Writes src/brands/simple-icons.generated.ts: only the simple-icons (CC0) logos the
 * cards use. Importing the whole package costs about 30 MB of memory per process; the
 * extract costs about 100 kB. Run after changing the `si*` names in src/brands/*.ts:
 *   node scripts/extract-simple-icons.mjs
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as simpleIcons from 'simple-icons';

const brands = new URL('../src/brands/', import.meta.url);
// Every icon is looked up by name, so the whole package is loaded on purpose here.
const allIcons = new Map(Object.entries(simpleIcons));
const used = new Set();
for (const file of readdirSync(brands)) {
  if (!file.endsWith('.ts') || file.endsWith('.generated.ts')) continue;
  for (const match of readFileSync(new URL(file, brands), 'utf8').matchAll(/\bsi[A-Z][A-Za-z0-9_]*\b/g)) {
    if (allIcons.has(match[0])) used.add(match[0]);
  }
}
const names = [...used].sort();
const lines = [
  '/**',
  ` * @module Logos extracted from simple-icons ${JSON.parse(readFileSync(new URL('../../../node_modules/simple-icons/package.json', import.meta.url), 'utf8')).version} (CC0-1.0) by`,
  ' * scripts/extract-simple-icons.mjs. Generated: do not edit.',
  ' */',
  "import type { SimpleIconData } from './brand-icon.js';",
  '',
  ...names.map((name) => {
    const { title, hex, path } = allIcons.get(name);
    return `export const ${name}: SimpleIconData = ${JSON.stringify({ title, hex, path })};`;
  }),
  '',
];
const target = new URL('simple-icons.generated.ts', brands);
writeFileSync(target, lines.join('\n'));
// Formatted like the rest of the tree, so regenerating gives no diff.
execFileSync('npx', ['biome', 'format', '--write', fileURLToPath(target)], { stdio: 'inherit' });
console.log(`wrote ${names.length} icons`);
