/**
 * @module GitHub's real GraphQL schema (from @octokit/graphql-schema), built once for the fake.
 */
import { schema } from '@octokit/graphql-schema';
import { buildClientSchema } from 'graphql';

/** @type {import('graphql').GraphQLSchema | undefined} */
let built;

/** The schema, built on first use (a few hundred ms). */
export function githubSchema() {
  built ??= buildClientSchema(/** @type {import('graphql').IntrospectionQuery} */ (schema.json));
  return built;
}
