/**
 * @module Tests: answering a request leaves nothing in V8's old generation. Whatever a request
 * allocates there (rather than in the young generation, where it dies almost for free) is only
 * freed by a full garbage collection, which marks the whole 100,000-player index: under load
 * that was one every couple of seconds and the event loop's longest stalls. Checked
 * on the node:http fast path of a built API, with the old generation's size read before and
 * after tens of thousands of answers.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createStatsApi, type StatsApi } from '../src/index.js';
import { createServerFolder, type GeneratedServer } from './support/generated-server.js';

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

let server: GeneratedServer;
let api: StatsApi;

beforeAll(async () => {
  server = await createServerFolder({ players: 30, seed: 12 });
  api = await createStatsApi({
    config: {
      'server-dir': server.dir,
      'rate-limit': { enabled: false },
      compression: { enabled: false },
      index: { 'snapshot-file': false },
    },
    live: false,
  });
});

afterAll(async () => {
  api?.close();
  await server.remove();
});

function oldGenerationBytes(): number {
  return getHeapSpaceStatistics().find((space) => space.space_name === 'old_space')!.space_used_size;
}

/**
 * Answers `target` `count` times through the bin's fast path, into responses that keep the last
 * 64 answers alive as a socket's pending writes would; returns how much the old generation grew.
 */
function oldGrowthAnswering(target: string, count: number): number {
  const inFlight: unknown[] = new Array(64);
  let answered = 0;
  const answerOnce = (slot: number) => {
    const response = {
      writeHead: (_status: number, headers: unknown) => {
        inFlight[slot] = headers;
      },
      end: (body: string) => {
        inFlight[(slot + 32) % 64] = body;
        answered++;
      },
    };
    const taken = api.answerDirectly!(
      { method: 'GET', url: target } as IncomingMessage,
      response as unknown as ServerResponse,
    );
    expect(taken).toBe(true);
  };
  // Warm up (compiled code, inline caches), then start from a collected heap.
  for (let request = 0; request < 2_000; request++) answerOnce(request % 64);
  collectGarbage();
  const before = oldGenerationBytes();
  for (let request = 0; request < count; request++) answerOnce(request % 64);
  const grown = oldGenerationBytes() - before;
  expect(answered).toBe(count + 2_000);
  return grown;
}

test.each([
  ['a cached leaderboard page', '/api/leaderboard/deaths?limit=25'],
  ['health, computed afresh', '/api/health'],
])('answering %s again leaves no garbage in the old generation', async (_title, target) => {
  // The first answer goes through the app, which teaches the fast path its headers (the Node
  // adapter passes node:http's request, whose target is the one the fast path looks up).
  const first = await api.fetch(new Request(`http://host${target}`), { incoming: { url: target } });
  expect(first.status).toBe(200);
  await first.text();
  // 50,000 answers; the object spread of the headers left ~100 bytes each (5 MB) there.
  expect(oldGrowthAnswering(target, 50_000)).toBeLessThan(1_000_000);
});
