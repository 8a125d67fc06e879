/**
 * @module Every GraphQL query of the code is valid against GitHub's published schema, so a
 * misspelt field or argument fails here instead of in production.
 */
import { validate } from '@octokit/graphql-schema';
import { describe, expect, it } from 'vitest';
import * as queries from '../../src/github/queries.js';

const named = Object.entries(queries).flatMap(([name, value]) =>
  typeof value === 'string' && name.endsWith('_QUERY') ? [[name, value] as const] : [],
);

describe('GraphQL queries', () => {
  it('lists every exported query in ALL_QUERIES', () => {
    expect(named.length).toBeGreaterThan(0);
    expect([...queries.ALL_QUERIES].sort()).toEqual(named.map(([, query]) => query).sort());
  });

  it.each(named)('%s validates against the schema', (_name, query) => {
    expect(validate(query).map((error) => error.message)).toEqual([]);
  });

  it('rejects a wrong field (the check is real)', () => {
    expect(validate('query { user(login: "x") { starCount } }').length).toBeGreaterThan(0);
  });
});
