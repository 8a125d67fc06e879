// A separate server process for the audit tests: appends entries to the audit chain of the
// database named by its arguments, using the built package (dist/), then exits.
//   node audit-appender.mjs sqlite <file> <count> <label> '' <data-dir>
//   node audit-appender.mjs postgres <url> <count> <label> <schema> <data-dir>
// <data-dir> holds the chain's key and head, shared by both processes as by two servers on one host.
import Database from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { auditChainFiles, createWebAuth } from '../../dist/index.js';

const [kind, target, count, label, schema, dataDir] = process.argv.slice(2);
const dialect =
  kind === 'sqlite'
    ? new SqliteDialect({ database: new Database(target, { timeout: 10_000 }) })
    : new PostgresDialect({
        pool: new pg.Pool({ connectionString: target, options: `-c search_path=${schema}`, max: 4 }),
      });
const db = new Kysely({ dialect });
const auth = createWebAuth({ db, audit: auditChainFiles(dataDir) });
// Wait for the go signal on stdin so both processes start appending together.
await new Promise((resolve) => process.stdin.once('data', resolve));
await Promise.all(
  Array.from({ length: Number(count) }, (_, index) =>
    auth.audit.append({ action: `${label}-${index}`, outcome: 'ok' }),
  ),
);
await db.destroy();
