/**
 * @module A fake GitHub API on loopback: GraphQL executed by graphql-js against GitHub's real schema
 * over fixture accounts, REST from the same fixtures, with switches for rate limits, 5xx and
 * slow answers, and a log of every request so tests can count upstream calls.
 */
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import { graphql } from 'graphql';
import { FakeGraphQLError, rootValue } from './resolvers.mjs';
import { githubSchema } from './schema.mjs';

const RESET_IN_SECONDS = 600;
const MAX_LISTED_PAGES = 400;

/** @param {import('node:http').ServerResponse} res */
function send(res, status, body, headers = {}) {
  const text = body === undefined ? '' : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(text);
}

function parseJson(text) {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A GraphQL request is named by its operation and variables, a REST one by its path and query. */
function keyOf(req, payload) {
  if (payload === undefined) return req.url ?? '';
  const operation = /query\s+(\w+)/.exec(payload.query ?? '')?.[1] ?? 'anonymous';
  return `${operation} ${JSON.stringify(payload.variables ?? {})}`;
}

const tokenOf = (req) => (req.headers.authorization ?? '').replace(/^bearer\s+/i, '');

/**
 * Starts the fake. `fixtures.users` are the accounts; `now()` is the fake's clock.
 * @param {{ users: object[] }} fixtures
 * @param {{ now?: () => number, requireToken?: boolean }} [options]
 */
export async function startFakeGitHub(fixtures, options = {}) {
  const now = options.now ?? Date.now;
  const schema = githubSchema();
  const root = rootValue(fixtures, now);
  const switches = {
    /** Milliseconds before every answer. */
    delayMs: 0,
    /** The next N requests answer 502. */
    failNext: 0,
    /** Every request answers 503 while true. */
    down: false,
    /** Tokens over their primary limit ('*' = all). */
    limitedTokens: new Set(),
    /** Tokens hitting a secondary limit (403 with retry-after). */
    secondaryLimitTokens: new Set(),
    /** `retry-after` of secondary limits; null sends none (only the message says it). */
    secondaryRetryAfter: /** @type {number | null} */ (60),
  };
  /** @type {Array<{kind: 'graphql' | 'rest', key: string, token: string, status: number}>} */
  const requests = [];

  const isLimited = (token) => switches.limitedTokens.has('*') || switches.limitedTokens.has(token);
  const limitHeaders = () => ({
    'x-ratelimit-limit': '5000',
    'x-ratelimit-remaining': '0',
    'x-ratelimit-reset': String(Math.floor(now() / 1000) + RESET_IN_SECONDS),
  });

  async function answerGraphql(res, payload, token, log) {
    if (payload === undefined) {
      log.status = 400;
      return send(res, 400, { message: 'Problems parsing JSON' });
    }
    if (options.requireToken && token === '') {
      log.status = 401;
      return send(res, 401, { message: 'This endpoint requires you to be authenticated.' });
    }
    if (isLimited(token)) {
      return send(
        res,
        200,
        { data: null, errors: [{ type: 'RATE_LIMITED', message: 'API rate limit exceeded for user ID 1.' }] },
        limitHeaders(),
      );
    }
    const result = await graphql({
      schema,
      source: payload.query,
      variableValues: payload.variables,
      rootValue: root,
    });
    const errors = result.errors?.map((error) => ({
      message: error.message,
      locations: error.locations,
      path: error.path,
      ...(error.originalError instanceof FakeGraphQLError ? { type: error.originalError.type } : {}),
    }));
    send(res, 200, errors ? { data: result.data ?? null, errors } : { data: result.data }, {
      'x-ratelimit-limit': '5000',
      'x-ratelimit-remaining': '4999',
    });
  }

  function restBody(url, req) {
    const user = (login) => fixtures.users.find((item) => item.login.toLowerCase() === login.toLowerCase());
    let match = /^\/repos\/([^/]+)\/([^/]+)(\/stargazers)?$/.exec(url.pathname);
    if (match) {
      const owner = user(decodeURIComponent(match[1]));
      const repository = owner?.repositories.find(
        (item) => item.name.toLowerCase() === decodeURIComponent(match[2]).toLowerCase(),
      );
      if (!owner || !repository) return { status: 404, body: { message: 'Not Found' } };
      const stargazers = repository.stargazers ?? [];
      if (!match[3]) {
        return {
          status: 200,
          body: {
            full_name: `${owner.login}/${repository.name}`,
            stargazers_count: repository.stars,
            forks_count: repository.forks ?? 0,
          },
        };
      }
      const perPage = Math.min(100, Number(url.searchParams.get('per_page') ?? 30));
      const page = Number(url.searchParams.get('page') ?? 1);
      if (page > MAX_LISTED_PAGES) {
        return {
          status: 422,
          body: {
            message: 'In order to keep the API fast for everyone, pagination is limited for this resource.',
          },
        };
      }
      const starJson = (req.headers.accept ?? '').includes('star+json');
      const slice = stargazers.slice((page - 1) * perPage, page * perPage);
      return {
        status: 200,
        body: slice.map((starredAt, index) =>
          starJson
            ? { starred_at: starredAt, user: { login: `fan${(page - 1) * perPage + index}` } }
            : { login: `fan${index}` },
        ),
      };
    }
    match = /^\/users\/([^/]+)\/events\/public$/.exec(url.pathname);
    if (match) {
      const found = user(decodeURIComponent(match[1]));
      if (!found) return { status: 404, body: { message: 'Not Found' } };
      return { status: 200, body: found.events ?? [] };
    }
    return { status: 404, body: { message: 'Not Found' } };
  }

  function answerRest(req, res, token, log) {
    const url = new URL(req.url ?? '/', 'http://fake');
    if (isLimited(token)) {
      log.status = 403;
      return send(res, 403, { message: 'API rate limit exceeded' }, limitHeaders());
    }
    const { status, body } = restBody(url, req);
    log.status = status;
    if (status !== 200) return send(res, status, body);
    const text = JSON.stringify(body);
    const etag = `W/"${createHash('sha1').update(text).digest('hex')}"`;
    if (req.headers['if-none-match'] === etag) {
      log.status = 304;
      res.writeHead(304, { etag });
      return res.end();
    }
    res.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      etag,
      'x-ratelimit-remaining': '4999',
    });
    res.end(text);
  }

  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', async () => {
      const token = tokenOf(req);
      const isGraphql = req.method === 'POST' && req.url === '/graphql';
      const payload = isGraphql ? parseJson(Buffer.concat(chunks).toString('utf8')) : undefined;
      // Logged on arrival, so a slow answer still counts in the test that asked for it.
      const log = { kind: isGraphql ? 'graphql' : 'rest', key: keyOf(req, payload), token, status: 200 };
      requests.push(log);
      if (switches.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, switches.delayMs));
      if (switches.down || switches.failNext > 0) {
        switches.failNext = Math.max(0, switches.failNext - 1);
        log.status = 502;
        return send(res, 502, { message: 'Server Error' });
      }
      if (switches.secondaryLimitTokens.has(token)) {
        log.status = 403;
        const retryAfter =
          switches.secondaryRetryAfter === null
            ? {}
            : { 'retry-after': String(switches.secondaryRetryAfter) };
        return send(res, 403, { message: 'You have exceeded a secondary rate limit.' }, retryAfter);
      }
      if (isGraphql) return answerGraphql(res, payload, token, log);
      if (req.method === 'GET') return answerRest(req, res, token, log);
      log.status = 404;
      send(res, 404, { message: 'Not Found' });
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    switches,
    requests,
    /** Requests whose key starts with `prefix` (a GraphQL operation name or a REST path). */
    count: (prefix) => requests.filter((request) => request.key.startsWith(prefix)).length,
    reset() {
      requests.length = 0;
      Object.assign(switches, { delayMs: 0, failNext: 0, down: false, secondaryRetryAfter: 60 });
      switches.limitedTokens.clear();
      switches.secondaryLimitTokens.clear();
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve(undefined));
      }),
  };
}
