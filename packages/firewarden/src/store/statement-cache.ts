/**
 * @module Reuses prepared SQLite statements: kysely's SQLite driver prepares every query anew,
 * which costs more than running it for the small indexed lookups of each request (session check,
 * audit head). Keyed by SQL text (values are bound parameters), bounded in number.
 */
import type SqliteDatabase from 'better-sqlite3';
import type { SqliteDatabase as KyselySqliteDatabase } from 'kysely';

const maxStatements = 256;

export function withStatementCache(sqlite: SqliteDatabase.Database): KyselySqliteDatabase {
  const statements = new Map<string, SqliteDatabase.Statement>();
  return {
    close: () => {
      statements.clear();
      sqlite.close();
    },
    prepare(sql: string) {
      let statement = statements.get(sql);
      if (!statement) {
        statement = sqlite.prepare(sql);
        if (statements.size >= maxStatements) statements.delete(statements.keys().next().value!);
        statements.set(sql, statement);
      }
      return statement;
    },
  };
}
