/**
 * @module `node bench/upstream-calls.mjs` (after `npm run build -w packages/cards`): what one
 * cold card costs the token pool, counted at the fake GitHub on loopback, next to the same
 * request repeated (warm: no call). Light: 24 requests, no lock needed.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { measureUpstreamCalls, startBenchGitHub } from './github-upstream.mjs';

const bin = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const directory = mkdtempSync(join(tmpdir(), 'readme-cards-upstream-'));
const github = await startBenchGitHub();
const child = spawn(process.execPath, [bin, 'serve', '--host', '127.0.0.1', '--port', '0'], {
  env: {
    ...process.env,
    CARDS_STORE: join(directory, 'cards.db'),
    LOG_LEVEL: 'warn',
    GITHUB_API_URL: github.url,
    GITHUB_TOKENS: 'bench-token',
  },
  stdio: ['ignore', 'pipe', 'inherit'],
});
try {
  const url = await new Promise((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  console.log(
    `readme-cards upstream calls per cold card, ${new Date().toISOString()}, Node ${process.version}`,
  );
  await measureUpstreamCalls(url, github, console.log);
} finally {
  child.kill('SIGTERM');
  await github.close();
  rmSync(directory, { recursive: true, force: true });
}
