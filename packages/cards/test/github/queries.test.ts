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

  it('validates the aliased calendar query for every year from 2008 to a fixed current year', () => {
    const years = Array.from({ length: 2026 - 2008 + 1 }, (_, index) => 2008 + index);
    const query = queries.contributionCalendarsQuery(years);
    expect(query).toContain(
      'y2008: contributionsCollection(from: "2008-01-01T00:00:00Z", to: "2008-12-31T23:59:59Z")',
    );
    expect(query.match(/: contributionsCollection\(/g)).toHaveLength(19);
    expect(validate(query).map((error) => error.message)).toEqual([]);
    // The second request of a backdated year.
    expect(validate(queries.contributionCalendarsQuery([1999])).map((error) => error.message)).toEqual([]);
  });

  it('rejects a wrong field (the check is real)', () => {
    expect(validate('query { user(login: "x") { starCount } }').length).toBeGreaterThan(0);
  });
});
