/**
 * @module Vercel function (Node.js runtime): `vercel.json` rewrites every path here, and the
 * request keeps its own URL, so `/stats?...`, `/api/stats?...` and `/` answer as on Node.
 * Stores come from the environment as for `readme-cards serve`; without `CARDS_STORE` the
 * counter lives in the instance's memory, since a function's disk is not kept.
 */
import { createLogger } from '@suite/server-kit';
import { handle } from 'hono/vercel';
import { appOptionsFromEnvironment } from '../dist/adapter/node/environment.js';
import { createApp } from '../dist/app.js';
import { createMemoryVisitorStore } from '../dist/store/visitor-store.js';

const logger = createLogger({ name: 'readme-cards' });
const options = await appOptionsFromEnvironment(process.env, logger, {
  visitorsWithoutStore: (limits) => {
    logger.warn({}, 'CARDS_STORE is not set: the visitor counter is not persistent');
    return createMemoryVisitorStore(limits);
  },
});
const handler = handle(createApp(options));

export const GET = handler;
export const HEAD = handler;
