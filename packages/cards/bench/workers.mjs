/**
 * @module Workers benchmark (`npm run bench:workers -w packages/cards`; run under
 * `flock /tmp/heavy.lock`): the Worker bundle in workerd through miniflare, each figure next to
 * a bare Worker measured in the same run.
 *
 * 1. Cold start: from creating the runtime to the first answered request (`/badge`, then a
 *    `/stats` whose data comes from the fake GitHub on loopback), median of `coldRuns`; the
 *    baseline is a Worker that answers a fixed string.
 * 2. Warm requests: autocannon on workerd's socket (`BENCH_SECONDS`, 50 connections); the
 *    baseline Worker answers the same bytes and headers.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { Miniflare } from 'miniflare';
import { bundleForWorkers } from '../scripts/bundle-worker.mjs';
import { startBenchGitHub } from './github-upstream.mjs';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = 50;
const coldRuns = 7;
const compatibilityDate = '2025-12-01';

const badgePath = '/badge?label=build&message=passing&color=success';
const statsPath = '/stats?username=grace&showIcons=true';

/** Starts a Worker from one ES module; resolves with the runtime and its socket URL. */
async function startWorker(code, options = {}) {
  const worker = new Miniflare({
    modules: [{ type: 'ESModule', path: 'worker.mjs', contents: code }],
    compatibilityDate,
    // workerd logs every connection autocannon drops at the end of a run; the figures say enough.
    handleRuntimeStdio(stdout, stderr) {
      stdout.resume();
      stderr.resume();
    },
    ...options,
  });
  const url = await worker.ready;
  return { worker, url: url.origin };
}

/** A Worker answering `body` with `headers` to every request: workerd's own ceiling. */
function bareWorker(body, headers) {
  return `const body = ${JSON.stringify(body)}; const headers = ${JSON.stringify(headers)};
export default { fetch() { return new Response(body, { headers }); } };`;
}

const median = (values) => values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)];

/** Milliseconds from `new Miniflare` to each path answered in order, fresh runtime each run. */
async function coldStart(code, paths, options) {
  const runs = paths.map(() => []);
  const directory = mkdtempSync(join(tmpdir(), 'readme-cards-bench-workerd-'));
  try {
    for (let run = 0; run < coldRuns; run++) {
      const started = performance.now();
      const { worker, url } = await startWorker(code, {
        ...options,
        d1Persist: join(directory, `d1-${run}`),
        cachePersist: join(directory, `cache-${run}`),
      });
      try {
        for (const [index, path] of paths.entries()) {
          const response = await fetch(`${url}${path}`);
          if (response.status !== 200) throw new Error(`${path}: ${response.status}`);
          await response.arrayBuffer();
          runs[index].push(performance.now() - started);
        }
      } finally {
        await worker.dispose();
      }
    }
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
  return runs.map(median);
}

async function load(url) {
  await autocannon({ url, connections, duration: Math.max(1, Math.round(seconds / 4)) });
  const result = await autocannon({ url, connections, duration: seconds });
  if (result.non2xx) throw new Error(`${url}: ${result.non2xx} answers were not 2xx`);
  // Socket errors (a connection workerd drops under overload) are counted, not fatal.
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors,
  };
}

const row = (cells) => `| ${cells.join(' | ')} |`;

const github = await startBenchGitHub();
const bindings = { GITHUB_TOKENS: 'bench-token', GITHUB_API_URL: github.url };
try {
  const { code } = await bundleForWorkers();
  console.log(
    `readme-cards Workers benchmark, ${new Date().toISOString()}, miniflare/workerd, bundle ${Math.round(code.length / 1024)} KiB, ${coldRuns} cold runs, ${seconds} s per warm run, ${connections} connections`,
  );
  console.log('');
  console.log(row(['cold start (median)', 'readme-cards (ms)', 'bare Worker (ms)', 'difference (ms)']));
  console.log(row(['---', '---', '---', '---']));
  const bareCold = await coldStart(bareWorker('ok', {}), ['/'], {});
  const [badgeCold, statsCold] = await coldStart(code, [badgePath, statsPath], {
    bindings,
    d1Databases: ['DB'],
  });
  console.log(
    row([
      'start to first answer (/badge)',
      badgeCold.toFixed(0),
      bareCold[0].toFixed(0),
      (badgeCold - bareCold[0]).toFixed(0),
    ]),
  );
  console.log(
    row(['then /stats from cold GitHub data', statsCold.toFixed(0), '', (statsCold - badgeCold).toFixed(0)]),
  );

  console.log('');
  console.log(
    row([
      'warm request',
      'readme-cards req/s',
      'p50 / p99 (ms)',
      'bare Worker req/s',
      'bare p99 (ms)',
      'ours / bare',
      'socket errors (ours / bare)',
    ]),
  );
  console.log(row(['---', '---', '---', '---', '---', '---', '---']));
  const directory = mkdtempSync(join(tmpdir(), 'readme-cards-bench-workerd-'));
  const ours = await startWorker(code, {
    bindings,
    d1Databases: ['DB'],
    d1Persist: join(directory, 'd1'),
    cachePersist: join(directory, 'cache'),
  });
  try {
    for (const path of [badgePath, statsPath]) {
      const sample = await fetch(`${ours.url}${path}`);
      const body = await sample.text();
      const headers = Object.fromEntries(
        [...sample.headers].filter(
          ([name]) => !['content-length', 'date', 'connection', 'keep-alive'].includes(name),
        ),
      );
      const measured = await load(`${ours.url}${path}`);
      const bare = await startWorker(bareWorker(body, headers));
      let ceiling;
      try {
        ceiling = await load(`${bare.url}${path}`);
      } finally {
        await bare.worker.dispose();
      }
      console.log(
        row([
          `${path.split('?')[0]} (${body.length} B)`,
          Math.round(measured.rps).toLocaleString('en-US'),
          `${measured.p50} / ${measured.p99}`,
          Math.round(ceiling.rps).toLocaleString('en-US'),
          String(ceiling.p99),
          `${Math.round((measured.rps / ceiling.rps) * 100)}%`,
          `${measured.errors} / ${ceiling.errors}`,
        ]),
      );
    }
  } finally {
    await ours.worker.dispose();
    rmSync(directory, { recursive: true, force: true });
  }
} finally {
  await github.close();
}
