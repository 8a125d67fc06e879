/**
 * @module Two real server processes (child `node` processes running the built package) append to
 * one audit chain at the same time, on a SQLite file and on PostgreSQL: the chain verifies, has
 * every entry once and no fork. Needs `npm run build -w packages/web-auth` (the root `npm test`
 * builds first); without dist/ it is skipped with a printed reason, except under CI=true.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { auditChainFiles, createWebAuth } from '../src/index.js';
import { databaseKinds, openTestDatabase, type TestDatabase } from './support/databases.js';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const appender = join(packageDir, 'test', 'support', 'audit-appender.mjs');
const built = existsSync(join(packageDir, 'dist', 'index.js'));
if (!built && process.env.CI !== 'true') {
  console.warn('skipping the two-process audit test: run `npm run build -w packages/web-auth` first');
}

function finished(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.once('exit', resolve));
}

describe.runIf(built || process.env.CI === 'true').each(databaseKinds)(
  'two processes appending on %s',
  (kind) => {
    let database: TestDatabase;
    let dataDir: string;
    beforeEach(async () => {
      database = await openTestDatabase(kind);
      dataDir = mkdtempSync(join(tmpdir(), 'web-auth-processes-'));
    });
    afterEach(async () => {
      await database?.close();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('keep one unforked chain', async () => {
      const perProcess = 150;
      const target = kind === 'sqlite' ? database.file! : database.url!;
      const children = ['one', 'two'].map((label) =>
        spawn(
          process.execPath,
          [appender, kind, target, String(perProcess), label, database.schema ?? '', dataDir],
          {
            cwd: packageDir,
            stdio: ['pipe', 'inherit', 'inherit'],
          },
        ),
      );
      // Let both connect, then start them together.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      for (const child of children) child.stdin?.end('go\n');
      expect(await Promise.all(children.map(finished))).toEqual([0, 0]);

      const auth = createWebAuth({ db: database.db, audit: auditChainFiles(dataDir) });
      expect(await auth.audit.verifyChain()).toMatchObject({ ok: true, count: 2 * perProcess });
      const actions = (await auth.audit.list({ limit: 500 })).entries.map((entry) => entry.action);
      expect(new Set(actions).size).toBe(2 * perProcess);
      const rows = await database.db
        .selectFrom('auth_audit')
        .select(['seq', 'prev_hash', 'action'])
        .orderBy('seq')
        .execute();
      expect(new Set(rows.map((row) => row.prev_hash)).size).toBe(rows.length);
      // Both wrote. On PostgreSQL the advisory lock queues them, so their entries interleave; on
      // SQLite the busy handler may let one writer run ahead of the other, which is still one chain.
      const label = (index: number) => String(rows[index]?.action).slice(0, 3);
      const switches = rows.filter((_, index) => index > 0 && label(index) !== label(index - 1));
      expect(switches.length).toBeGreaterThanOrEqual(kind === 'postgres' ? 2 : 1);
    });
  },
);
