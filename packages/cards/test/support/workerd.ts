/**
 * @module The Worker bundle running in the real workerd runtime through miniflare, with a D1
 * database and the Cache API persisted in a folder (so a restart keeps both).
 */
import { Miniflare } from 'miniflare';
import { bundleForWorkers } from '../../scripts/bundle-worker.mjs';

/** The compatibility date of `wrangler.toml`. */
export const compatibilityDate = '2025-12-01';

interface WorkerBindings {
  GITHUB_TOKENS?: string;
  GITHUB_API_URL?: string;
}

let bundled: Promise<string> | undefined;

/** The Worker bundle, built once per test file. */
function workerBundle(): Promise<string> {
  const code = bundled ?? bundleForWorkers().then((bundle) => bundle.code);
  bundled = code;
  return code;
}

/**
 * Starts the Worker in workerd. `persistTo` holds D1 and the cache; `d1` false leaves out the
 * `DB` binding.
 */
export async function startWorker(
  bindings: WorkerBindings,
  persistTo: string,
  options: { d1?: boolean } = {},
): Promise<Miniflare> {
  const worker = new Miniflare({
    modules: [{ type: 'ESModule', path: 'worker.mjs', contents: await workerBundle() }],
    compatibilityDate,
    bindings: { ...bindings },
    d1Databases: options.d1 === false ? [] : ['DB'],
    d1Persist: `${persistTo}/d1`,
    cachePersist: `${persistTo}/cache`,
  });
  await worker.ready;
  return worker;
}
