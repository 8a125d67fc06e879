/**
 * @module Running kysely's Migrator on a PostgreSQL database that others use too. Before it
 * migrates, the Migrator lists the tables of every schema of the database (calling
 * `has_schema_privilege` and `pg_get_serial_sequence` on each name), so a schema that another
 * program, or another test file, drops during that scan fails the run with SQLSTATE 3F000
 * naming that schema, or 42P01 naming one of its tables (`relation "schema.table" does not
 * exist`, when the schema goes between the listing and the sequence lookup). Nothing of ours is
 * wrong then, and no migration has run: the run is simply made again. Either error naming our
 * own schema is ours, and is thrown at once.
 */

/** SQLSTATE `invalid_schema_name`. */
const invalidSchemaName = '3F000';
/** SQLSTATE `undefined_table`. */
const undefinedTable = '42P01';
/**
 * Runs are cheap (milliseconds) and the condition is narrow. Against a neighbour that creates and
 * drops a schema every few milliseconds about one run in five fails on a quiet machine, but on a
 * loaded one the scan is slower and most runs can fail: a CI run saw ten in a row. Thirty keeps
 * every run failing out of sight even at three failures in four.
 */
const attempts = 30;

/**
 * Runs `migrate` (a Migrator's `migrateToLatest`, whose result carries `error` rather than
 * throwing) until it does not fail on a schema dropped by someone else. `ownSchema`: the schema
 * the migrations are in, when it is not the connection's default.
 */
export async function migrateDespiteDroppedSchemas<Result extends { error?: unknown }>(
  migrate: () => Promise<Result>,
  ownSchema?: string,
): Promise<Result> {
  for (let attempt = 1; ; attempt++) {
    const result = await migrate();
    if (result.error === undefined || attempt === attempts || !droppedByOthers(result.error, ownSchema))
      return result;
  }
}

function droppedByOthers(error: unknown, ownSchema: string | undefined): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (code === invalidSchemaName) {
    return ownSchema === undefined || typeof message !== 'string' || !message.includes(`"${ownSchema}"`);
  }
  if (code !== undefinedTable || typeof message !== 'string') return false;
  // Only a table the scan named with its schema; an unqualified one is a migration's own.
  const schema = /^relation "([^".]+)\.[^"]+" does not exist$/.exec(message)?.[1];
  return schema !== undefined && schema !== ownSchema;
}
