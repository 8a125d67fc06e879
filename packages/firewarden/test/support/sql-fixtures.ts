/**
 * @module Direct database access for fixtures the API has no route for (notifications the engine
 * will raise, a disabled account) and for tampering with the audit trail.
 */
import Database from 'better-sqlite3';
import pg from 'pg';

export interface SqlRunner {
  run(statement: string, parameters?: unknown[]): Promise<void>;
  close(): Promise<void>;
}

/** `$1`-style parameters on both drivers. */
export async function sqlRunner(target: { sqliteFile?: string; dsn?: string }): Promise<SqlRunner> {
  if (target.dsn) {
    const client = new pg.Client({ connectionString: target.dsn });
    await client.connect();
    return {
      run: async (statement, parameters = []) => {
        await client.query(statement, parameters);
      },
      close: () => client.end(),
    };
  }
  const db = new Database(target.sqliteFile!);
  db.pragma('busy_timeout = 5000');
  return {
    run: async (statement, parameters = []) => {
      db.prepare(statement.replace(/\$\d+/g, '?')).run(...parameters);
    },
    close: async () => {
      db.close();
    },
  };
}
