/**
 * @module The OpenAPI 3.1 document, generated from the same zod schemas that validate requests
 * and type responses (`z.toJSONSchema`, JSON Schema 2020-12 as OpenAPI 3.1 uses).
 */
import { z } from 'zod';
import {
  leaderboardQuerySchema,
  playerIdParam,
  playerQuerySchema,
  playersQuerySchema,
  statParam,
  summaryQuerySchema,
} from './query-params.js';
import {
  apiIndexSchema,
  errorSchema,
  healthSchema,
  leaderboardSchema,
  playerRecordSchema,
  playerSummarySchema,
  playersSchema,
  routeIndexSchema,
  statsNotFoundSchema,
} from './response-schemas.js';

type JsonSchema = Record<string, unknown>;

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

function queryParametersOf(schema: z.ZodObject): JsonSchema[] {
  const properties = (jsonSchema(schema, 'input').properties ?? {}) as Record<string, JsonSchema>;
  return Object.entries(properties).map(([name, property]) => {
    const { description, ...rest } = property;
    return { name, in: 'query', required: false, description, schema: rest };
  });
}

function pathParameter(name: string, schema: z.ZodType, description: string): JsonSchema {
  return { name, in: 'path', required: true, description, schema: jsonSchema(schema, 'input') };
}

const errorReference = { $ref: '#/components/schemas/Error' };
const errorResponses = Object.fromEntries(
  [
    [400, 'Malformed query parameter or path argument'],
    [401, 'Missing or wrong Bearer key'],
    [403, 'Client IP not allowed'],
    [404, 'Unknown route, player or statistic'],
    [405, 'Method other than GET'],
    [429, 'Rate limit exceeded (see Retry-After)'],
    [500, 'Internal error'],
  ].map(([status, description]) => [
    String(status),
    { description, content: { 'application/json': { schema: errorReference } } },
  ]),
);

function operation(summary: string, body: z.ZodType, parameters: JsonSchema[] = [], softNotFound = false) {
  const success = softNotFound
    ? { oneOf: [jsonSchema(body, 'output'), jsonSchema(statsNotFoundSchema, 'output')] }
    : jsonSchema(body, 'output');
  return {
    get: {
      summary,
      parameters,
      responses: {
        '200': { description: 'OK', content: { 'application/json': { schema: success } } },
        ...errorResponses,
      },
    },
  };
}

/**
 * Builds the document once; it only changes with the code (and whether a network is served:
 * only a network's routes take `?server=`).
 */
export function buildOpenApiDocument(version: string, network = false): JsonSchema {
  const queryParameters = (schema: z.ZodObject) =>
    queryParametersOf(schema).filter((parameter) => network || parameter.name !== 'server');
  const playerId = pathParameter('id', playerIdParam, 'UUID (with or without dashes) or exact current name');
  return {
    openapi: '3.1.0',
    info: {
      title: 'game-stats',
      version,
      description: 'Player statistics, leaderboards and online status of a Minecraft-style server.',
    },
    components: {
      schemas: { Error: jsonSchema(errorSchema, 'output') },
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'Only when security.enable-api-key is on' },
      },
    },
    security: [{}, { bearer: [] }],
    paths: {
      '/api/health': operation('Health snapshot', healthSchema),
      '/api': operation('Index', apiIndexSchema),
      '/api/docs': operation('Route index', routeIndexSchema),
      '/api/players': operation('Players sorted by name', playersSchema, queryParameters(playersQuerySchema)),
      '/api/player/{id}': operation(
        'Full player record',
        playerRecordSchema,
        [playerId, ...queryParameters(playerQuerySchema)],
        true,
      ),
      '/api/player/{id}/summary': operation(
        'Player summary',
        playerSummarySchema,
        [playerId, ...queryParameters(summaryQuerySchema)],
        true,
      ),
      '/api/leaderboard/{stat}': operation('Leaderboard of a statistic', leaderboardSchema, [
        pathParameter(
          'stat',
          statParam,
          'Built-in name, category.key, <ns>:<category>:<ns>:<name>, category, or custom',
        ),
        ...queryParameters(leaderboardQuerySchema),
      ]),
    },
  };
}
