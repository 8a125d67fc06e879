import { spawn } from 'node:child_process';
import { existsSync, lstatSync, readdirSync, readFileSync, readlinkSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

interface SuiteEntry {
  bin: string;
  hint?: string;
}

/** The products the launcher must start: those declaring `suite` with a CLI in place. */
function expectedProducts(): SuiteEntry[] {
  return readdirSync(join(root, 'packages'))
    .map((dir) => join(root, 'packages', dir))
    .filter((dir) => existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'src', 'cli.ts')))
    .map((dir) => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')))
    .filter((manifest) => manifest.suite)
    .map((manifest) => manifest.suite as SuiteEntry);
}

/**
 * On a fresh clone `npm ci` leaves workspace bins unlinked (their dist/ does not exist yet). The
 * launcher must link them: drop one link (botlists', a bin no other test runs) and expect it back.
 */
function unlinkBotlistsBin(): () => void {
  const link = join(root, 'node_modules', '.bin', 'botlists');
  const target = readlinkSync(link);
  rmSync(link);
  return () => {
    if (!existsSync(link) && !lstatSync(link, { throwIfNoEntry: false })) symlinkSync(target, link);
  };
}

test('npm start starts every product, prints its URL and hint, links every bin, and stops them all on Ctrl-C', async () => {
  const restoreBin = unlinkBotlistsBin();
  try {
    await runLauncher();
    expect(existsSync(join(root, 'node_modules', '.bin', 'botlists'))).toBe(true);
  } finally {
    restoreBin();
  }
});

async function runLauncher() {
  const launcher = spawn(process.execPath, [join(root, 'scripts', 'suite.mjs')], {
    cwd: root,
    env: { ...process.env, SUITE_PORT: '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  launcher.stdout.on('data', (chunk) => {
    output += chunk;
  });
  const exited = new Promise<number | null>((resolve) => launcher.once('exit', (code) => resolve(code)));
  const products = expectedProducts();
  expect(products.length).toBeGreaterThan(0);

  await new Promise<void>((resolve, reject) => {
    const check = () => output.includes('press Ctrl-C to stop') && resolve();
    launcher.stdout.on('data', check);
    check();
    launcher.once('exit', (code) =>
      reject(new Error(`launcher exited (${code}) before it was ready:\n${output}`)),
    );
  });
  const lines = output.split('\n');
  for (const { bin: product, hint } of products) {
    const index = lines.findIndex((l) => l.startsWith(`${product} `));
    const line = lines[index];
    expect(line, `line for ${product} in:\n${output}`).toMatch(/ http:\/\/127\.0\.0\.1:\d+\//);
    if (hint) expect(lines[index + 1]?.trim(), `hint of ${product}`).toBe(hint);
    const url = line!.trim().split(/\s+/)[1]!;
    const response = await fetch(url);
    expect(response.status, `${product} at ${url}`).toBeLessThan(500);
    await response.arrayBuffer();
  }

  launcher.kill('SIGINT');
  expect(await exited).toBe(0);
  // Every product's port is closed once the launcher is gone.
  for (const match of output.matchAll(/ (http:\/\/127\.0\.0\.1:\d+)\//g)) {
    await expect(fetch(match[1]!)).rejects.toThrow();
  }
}
