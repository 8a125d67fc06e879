#!/usr/bin/env node
/**
 * @module The suite launcher (`npm start`): builds what is stale, starts every server product
 * that exists on its default port with embedded defaults, prints one line per product with its
 * URL, and stops them all on Ctrl-C.
 *
 * A product takes part by declaring in its package.json:
 *   "suite": { "bin": "<bin name>", "args": ["serve", ...], "port": 3000, "path": "/", "hint": "..." }
 * and having a `src/cli.ts`; `hint` (optional) is printed under its URL (a first step to take).
 * After building, every workspace bin is linked into node_modules/.bin, so the commands the
 * READMEs show (`npx readme-cards ...`) work after `npm ci && npm start` on a fresh clone. Environment: SUITE_PORT=0 starts every product on a free port
 * (used by the launcher's own test).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const startTimeoutMs = 60_000;
const stopTimeoutMs = 10_000;

/** Packages in the order they must be built: libraries others import first. */
function readPackages() {
  const dirs = readdirSync(join(root, 'packages')).sort();
  return dirs
    .map((dir) => {
      const manifestPath = join(root, 'packages', dir, 'package.json');
      if (!existsSync(manifestPath)) return null;
      const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
      return { dir: join(root, 'packages', dir), manifest };
    })
    .filter((p) => p !== null);
}

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    const mtime = entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs;
    if (mtime > newest) newest = mtime;
  }
  return newest;
}

function isStale(pkg) {
  const src = join(pkg.dir, 'src');
  const dist = join(pkg.dir, 'dist');
  if (!existsSync(src) || !pkg.manifest.scripts?.build) return false;
  if (!existsSync(dist)) return true;
  return newestMtime(src) > newestMtime(dist);
}

function buildStale(packages) {
  // Workspace libraries (no `suite` field) come first so products compile against fresh types.
  const ordered = [...packages].sort(
    (a, b) => Number(Boolean(a.manifest.suite)) - Number(Boolean(b.manifest.suite)),
  );
  for (const pkg of ordered.filter(isStale)) {
    process.stdout.write(`building ${pkg.manifest.name}...\n`);
    const result = spawnSync('npm', ['run', 'build', '--silent'], { cwd: pkg.dir, stdio: 'inherit' });
    if (result.status !== 0) {
      process.stderr.write(`build of ${pkg.manifest.name} failed\n`);
      process.exit(1);
    }
  }
}

function binNames(pkg) {
  const { bin, name } = pkg.manifest;
  if (!bin) return [];
  return typeof bin === 'string' ? [name.split('/').pop()] : Object.keys(bin);
}

/**
 * `npm ci` on a fresh clone links no workspace bin whose target (dist/cli.js) does not exist yet;
 * once the build made them, `npm rebuild --ignore-scripts` links them without rerunning installs.
 */
function linkMissingBins(packages) {
  const binDir = join(root, 'node_modules', '.bin');
  const missing = packages.flatMap(binNames).filter((bin) => !existsSync(join(binDir, bin)));
  if (missing.length === 0) return;
  process.stdout.write(`linking ${missing.join(', ')} into node_modules/.bin...\n`);
  const result = spawnSync('npm', ['rebuild', '--ignore-scripts', '--silent'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status !== 0) process.stderr.write('linking the workspace bins failed\n');
}

function startProduct(pkg) {
  const { bin, args, port, path = '/' } = pkg.manifest.suite;
  const chosenPort = process.env.SUITE_PORT ?? String(port);
  // Run the bin's script with this Node: no reliance on node_modules/.bin links or file modes.
  const script = typeof pkg.manifest.bin === 'string' ? pkg.manifest.bin : pkg.manifest.bin[bin];
  const child = spawn(process.execPath, [join(pkg.dir, script), ...args, '--port', chosenPort], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const started = new Promise((resolve, reject) => {
    let buffered = '';
    const timer = setTimeout(
      () => reject(new Error(`no listening line within ${startTimeoutMs / 1000} s`)),
      startTimeoutMs,
    );
    child.stdout.on('data', (chunk) => {
      buffered += chunk;
      const match = /listening on (https?:\/\/\S+)/.exec(buffered);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
        buffered = '';
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`exited before listening (${signal ?? `code ${code}`})`));
    });
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
  return { name: bin, child, path, hint: pkg.manifest.suite.hint, started };
}

function stopAll(running) {
  const exits = running.map(
    ({ child }) =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        const timer = setTimeout(() => child.kill('SIGKILL'), stopTimeoutMs);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  );
  return Promise.all(exits);
}

async function main() {
  const packages = readPackages();
  const products = packages.filter((p) => p.manifest.suite && existsSync(join(p.dir, 'src', 'cli.ts')));
  if (products.length === 0) {
    process.stdout.write('no server product exists yet\n');
    return;
  }
  buildStale(packages);
  linkMissingBins(packages);
  mkdirSync(join(root, 'data'), { recursive: true });

  const running = products.map(startProduct);
  let stopping = false;
  const stop = async (code) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write('stopping...\n');
    await stopAll(running);
    process.exit(code);
  };
  process.on('SIGINT', () => stop(0));
  process.on('SIGTERM', () => stop(0));

  const results = await Promise.allSettled(running.map((r) => r.started));
  let listening = 0;
  results.forEach((result, index) => {
    const { name, path, hint } = running[index];
    if (result.status === 'fulfilled') {
      listening += 1;
      process.stdout.write(`${name.padEnd(14)} ${result.value}${path}\n`);
      if (hint) process.stdout.write(`${''.padEnd(14)} ${hint}\n`);
    } else {
      process.stdout.write(`${name.padEnd(14)} failed to start: ${result.reason.message}\n`);
    }
  });
  if (listening === 0) return stop(1);
  process.stdout.write(`suite running from ${relative(process.cwd(), root) || '.'}; press Ctrl-C to stop\n`);

  for (const { name, child } of running) {
    child.once('exit', (code, signal) => {
      if (!stopping) process.stdout.write(`${name} stopped (${signal ?? `code ${code}`})\n`);
    });
  }
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
