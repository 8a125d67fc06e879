/**
 * @module Benchmark of @suite/web-auth (build first: `npm run build -w packages/web-auth`).
 *
 * 1. argon2id hash and verify latency for the chosen parameters (m=19 MiB, t=2, p=1) next to the
 *    other OWASP argon2id settings, all measured in this run.
 * 2. Sign-in latency: `login()` end to end on SQLite (throttle, lookup, verify, session, audit)
 *    against a bare `verifyPassword` (the baseline: what the hash alone costs), interleaved one
 *    of each per round over 2 x BENCH_HASHES rounds.
 * 3. Session validation throughput on SQLite (one lookup per request, no touch write):
 *    `sessions.validate(token)`, without and with the session cache, against a hand-written
 *    prepared statement doing the same indexed join (the baseline).
 *
 * Environment: BENCH_HASHES (samples per argon2 setting, default 20), BENCH_VALIDATIONS (default
 * 50,000), BENCH_SESSIONS (live sessions, default 10,000).
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect } from 'kysely';
import {
  createWebAuth,
  defaultArgon2Parameters,
  hashPassword,
  verifyPassword,
  withWebAuthMigrations,
} from '../dist/index.js';

const hashSamples = Number(process.env.BENCH_HASHES ?? 20);
const validations = Number(process.env.BENCH_VALIDATIONS ?? 50_000);
const liveSessions = Number(process.env.BENCH_SESSIONS ?? 10_000);
const password = 'correct horse battery staple';

function summary(samples) {
  const sorted = samples.toSorted((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { p50: at(0.5), p95: at(0.95) };
}

const ms = (value) => `${value.toFixed(1)} ms`;

async function timeEach(count, task) {
  const samples = [];
  for (let index = 0; index < count; index++) {
    const start = performance.now();
    await task(index);
    samples.push(performance.now() - start);
  }
  return summary(samples);
}

async function argon2Table() {
  const settings = [
    ['chosen: m=19 MiB, t=2, p=1', defaultArgon2Parameters],
    ['OWASP: m=46 MiB, t=1, p=1', { memoryCost: 47_104, timeCost: 1, parallelism: 1 }],
    ['OWASP: m=12 MiB, t=3, p=1', { memoryCost: 12_288, timeCost: 3, parallelism: 1 }],
    ['OWASP: m=7 MiB, t=5, p=1', { memoryCost: 7_168, timeCost: 5, parallelism: 1 }],
  ];
  const rows = [];
  for (const [name, parameters] of settings) {
    await hashPassword(password, parameters); // warm-up
    const stored = await hashPassword(password, parameters);
    const hash = await timeEach(hashSamples, () => hashPassword(password, parameters));
    const verify = await timeEach(hashSamples, () => verifyPassword(stored, password));
    rows.push({ name, hash, verify });
  }
  return rows;
}

async function openSqlite(folder) {
  const sqlite = new Database(join(folder, 'bench.db'));
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  const db = new Kysely({ dialect: new SqliteDialect({ database: sqlite }) });
  const { error } = await new Migrator({ db, provider: withWebAuthMigrations() }).migrateToLatest();
  if (error) throw error;
  return { sqlite, db };
}

async function loginLatency(auth) {
  const stored = await hashPassword(password);
  const login = [];
  const bare = [];
  // Interleaved, one of each per round, so drift in the machine's load hits both alike.
  for (let index = 0; index < 2 * hashSamples; index++) {
    let start = performance.now();
    // Distinct clients (and a wide limit) so the throttle never refuses a timed attempt.
    await auth.login({ username: 'bench', password, client: `10.0.${index >> 8}.${index & 255}` });
    login.push(performance.now() - start);
    start = performance.now();
    await verifyPassword(stored, password);
    bare.push(performance.now() - start);
  }
  return { login: summary(login), bare: summary(bare) };
}

async function validationThroughput(auth, cached, sqlite) {
  const tokens = [];
  const user = await auth.users.getByUsername('bench');
  for (let index = 0; index < liveSessions; index++) tokens.push((await auth.sessions.create(user.id)).token);

  const lookup = sqlite.prepare(
    `select u.*, s.id as session_id, s.last_seen_at, s.expires_at
       from auth_sessions s join auth_users u on u.id = s.user_id where s.token_hash = ?`,
  );
  const baselineRun = () => {
    const start = performance.now();
    for (let index = 0; index < validations; index++) {
      const token = tokens[index % tokens.length];
      const row = lookup.get(createHash('sha256').update(token).digest('hex'));
      if (!row || row.disabled) throw new Error('baseline lookup failed');
    }
    return validations / ((performance.now() - start) / 1000);
  };
  const libraryRun = async (instance) => {
    const start = performance.now();
    for (let index = 0; index < validations; index++) {
      const valid = await instance.sessions.validate(tokens[index % tokens.length]);
      if (!valid) throw new Error('validation failed');
    }
    return validations / ((performance.now() - start) / 1000);
  };
  // Warm all three (this also fills the cache), then alternate so drift in machine load hits all alike.
  baselineRun();
  await libraryRun(auth);
  await libraryRun(cached);
  const runs = { baseline: [], library: [], cached: [] };
  for (let round = 0; round < 2; round++) {
    runs.baseline.push(baselineRun());
    runs.library.push(await libraryRun(auth));
    runs.cached.push(await libraryRun(cached));
  }
  return {
    baseline: Math.max(...runs.baseline),
    library: Math.max(...runs.library),
    cached: Math.max(...runs.cached),
  };
}

const folder = mkdtempSync(join(tmpdir(), 'web-auth-bench-'));
try {
  console.log(
    `web-auth bench: node ${process.version}, load average ${loadavg()
      .map((value) => value.toFixed(2))
      .join(
        ' ',
      )}, ${hashSamples} samples per argon2 setting, ${liveSessions} live sessions, ${validations} validations`,
  );

  console.log('\nargon2id latency (one call at a time)');
  for (const row of await argon2Table()) {
    console.log(
      `  ${row.name.padEnd(28)} hash p50 ${ms(row.hash.p50)} p95 ${ms(row.hash.p95)}   verify p50 ${ms(row.verify.p50)} p95 ${ms(row.verify.p95)}`,
    );
  }

  const { sqlite, db } = await openSqlite(folder);
  const auth = createWebAuth({ db, throttle: { maxAttempts: 1_000_000 } });
  await auth.users.create({ username: 'bench', password, role: 'admin' });

  const { login, bare } = await loginLatency(auth);
  console.log(`\nsign-in on SQLite (chosen parameters, ${2 * hashSamples} interleaved rounds)`);
  console.log(`  login() end to end          p50 ${ms(login.p50)} p95 ${ms(login.p95)}`);
  console.log(`  baseline: verifyPassword     p50 ${ms(bare.p50)} p95 ${ms(bare.p95)}`);
  console.log(`  overhead (p50)               ${ms(login.p50 - bare.p50)}`);

  const cached = createWebAuth({ db, sessions: { cacheSeconds: 3600, cacheMaxEntries: liveSessions } });
  const throughput = await validationThroughput(auth, cached, sqlite);
  console.log('\nsession validation on SQLite (sequential, one lookup per request)');
  console.log(`  sessions.validate()          ${Math.round(throughput.library).toLocaleString('en-US')} /s`);
  console.log(`  with cacheSeconds (all hits) ${Math.round(throughput.cached).toLocaleString('en-US')} /s`);
  console.log(`  baseline: prepared statement ${Math.round(throughput.baseline).toLocaleString('en-US')} /s`);
  const percent = (value) => `${((100 * value) / throughput.baseline).toFixed(0)} %`;
  console.log(
    `  ratios to baseline           ${percent(throughput.library)} uncached, ${percent(throughput.cached)} cached`,
  );
  await db.destroy();
} finally {
  rmSync(folder, { recursive: true, force: true });
}
