/**
 * @module What the benchmarks share: the built bin started on a data dir (waiting for its
 * listening line), the owner signed in through setup, and interleaved timing of workloads with
 * their median, p95 and minimum.
 */
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';

const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

/** A fixed identity for the commits a benchmark makes. */
export const gitEnv = {
  ...process.env,
  GIT_AUTHOR_NAME: 'bench',
  GIT_AUTHOR_EMAIL: 'bench@example.com',
  GIT_COMMITTER_NAME: 'bench',
  GIT_COMMITTER_EMAIL: 'bench@example.com',
};

export function startDaemon(dataDir, { args = [], env = {} } = {}) {
  const child = spawn(
    process.execPath,
    [cli, 'serve', '--host', '127.0.0.1', '--port', '0', '--data-dir', dataDir, '--setup-open', ...args],
    {
      env: { ...process.env, LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match) resolve({ child, url: match[1] });
    });
    child.once('exit', (code) => reject(new Error(`daemon exited with ${code}`)));
  });
}

/** Creates the owner; returns the session cookie and CSRF token. */
export async function signIn(url) {
  const setup = await fetch(`${url}/api/v1/setup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'bench', display_name: 'Bench', password: 'bench password 123' }),
  });
  const { csrf } = await setup.json();
  return { csrf, cookie: setup.headers.get('set-cookie').split(';')[0] };
}

/**
 * Times several workloads in interleaved rounds (A, B, C, A, B, C, ...) so a change in the
 * background load of the shared machine hits each of them alike. A workload may return its own
 * duration in ms (work whose end is an event, not the promise); otherwise the promise is timed.
 */
export async function measure(workloads, rounds, warmups = 3) {
  for (let n = 0; n < warmups; n++) for (const { work } of workloads) await work(); // page cache, git index, JIT
  const times = workloads.map(() => []);
  for (let n = 0; n < rounds; n++) {
    for (const [index, { work }] of workloads.entries()) {
      const start = process.hrtime.bigint();
      const own = await work();
      times[index].push(typeof own === 'number' ? own : Number(process.hrtime.bigint() - start) / 1e6);
    }
  }
  return workloads.map(({ label }, index) => {
    const sorted = times[index].sort((a, b) => a - b);
    const pick = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
    return { label, median: pick(0.5), p95: pick(0.95), min: sorted[0] };
  });
}

export function row(result, baseline) {
  const ratio = baseline ? ` ${(result.median / baseline.median).toFixed(2)}x` : '';
  return `${result.label.padEnd(46)} median ${result.median.toFixed(1).padStart(7)} ms  p95 ${result.p95.toFixed(1).padStart(7)} ms  min ${result.min.toFixed(1).padStart(7)} ms${ratio}`;
}

/** `1.23 4.56 7.89`: the 1, 5 and 15 minute load averages. */
export const loadAverage = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');
