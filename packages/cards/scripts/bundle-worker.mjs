/**
 * @module Bundles an entry of the package into one ES module for workerd (what `wrangler
 * deploy` does with esbuild), from the TypeScript sources, and reports every module in it.
 * Used by the Workers tests and the Workers benchmark; `node scripts/bundle-worker.mjs OUT`
 * writes the Worker bundle to OUT.
 */
import { writeFile } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';
import { rolldown } from 'rolldown';

export const workerEntry = fileURLToPath(new URL('../src/adapter/workers/index.ts', import.meta.url));

/**
 * Bundles `entry` for the Workers runtime, dynamic imports included. Node built-ins (imported
 * or required) are left out and listed in `externals`; `moduleIds` are the files inlined.
 * @param {string} entry
 * @returns {Promise<{ code: string, moduleIds: string[], externals: string[] }>}
 */
export async function bundleForWorkers(entry = workerEntry) {
  /** Node built-ins asked for by `import`, `import()` or `require()` anywhere in the graph. */
  const builtins = new Set();
  const bundle = await rolldown({
    input: entry,
    platform: 'browser',
    // Sources import './x.js' for './x.ts' (NodeNext style); workerd conditions first.
    resolve: {
      extensionAlias: { '.js': ['.ts', '.js'] },
      conditionNames: ['workerd', 'worker', 'browser', 'import', 'default'],
    },
    plugins: [
      {
        name: 'record-node-builtins',
        resolveId(source) {
          if (!source.startsWith('node:') && !builtinModules.includes(source.split('/')[0])) return null;
          builtins.add(source.startsWith('node:') ? source : `node:${source}`);
          return { id: source, external: true };
        },
      },
    ],
    logLevel: 'silent',
  });
  try {
    const { output } = await bundle.generate({ format: 'esm', codeSplitting: false, minify: true });
    const chunk = output.find((item) => item.type === 'chunk');
    if (chunk === undefined) throw new Error(`bundling ${entry} produced no code`);
    return { code: chunk.code, moduleIds: chunk.moduleIds, externals: [...builtins].sort() };
  } finally {
    await bundle.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const out = process.argv[2];
  if (!out) throw new Error('usage: node scripts/bundle-worker.mjs OUT.js');
  const { code } = await bundleForWorkers();
  await writeFile(out, code);
  console.log(`wrote ${out} (${Math.round(code.length / 1024)} KiB)`);
}
