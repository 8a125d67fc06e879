/**
 * @module Tests: cached serialised answers (one build per generation, fresh metadata each time)
 * and the shortcut that serves them again by request target.
 */
import { expect, test } from 'vitest';
import { AnswersByTarget, answerShortcut, FragmentCache } from '../../../src/http/fragment-cache.js';

test('builds a body once per generation; metadata is fresh, complete and the last key', () => {
  const cache = new FragmentCache(2);
  let builds = 0;
  const body = () => {
    builds++;
    return { a: 1, list: [builds] };
  };
  const first = cache.answer('k', 'g1', body, { ascending: true, search: 'x"y' });
  const text = first.render(performance.now());
  const parsed = JSON.parse(text);
  expect(Object.keys(parsed)).toEqual(['a', 'list', 'metadata']);
  expect(Object.keys(parsed.metadata)).toEqual(['generated_at', 'execution_time_ms', 'ascending', 'search']);
  expect(new Date(parsed.metadata.generated_at).toISOString()).toBe(parsed.metadata.generated_at);
  // Byte for byte what JSON.stringify gives for the whole object.
  expect(text).toBe(JSON.stringify(parsed));
  expect(cache.answer('k', 'g1', body)).toBe(first);
  expect(JSON.parse(cache.answer('k', 'g2', body).render(0)).list).toEqual([2]);
  expect(JSON.parse(cache.answer('empty', 'g1', () => ({})).render(0))).toEqual({
    metadata: { generated_at: expect.any(String), execution_time_ms: expect.any(Number) },
  });
  // Capacity 2: a third key evicts the oldest.
  cache.answer('other', 'g1', body);
  cache.answer('k', 'g2', body);
  expect(builds).toBe(4);
});

test('the shortcut serves a known target again with its learnt headers, only in the same generation', async () => {
  const answers = new AnswersByTarget();
  const cache = new FragmentCache();
  let generation = 'g1';
  let appCalls = 0;
  const app = (request: Request) => {
    appCalls++;
    answers.remember(
      new URL(request.url).href,
      cache.answer('page', generation, () => ({ calls: appCalls })),
    );
    return new Response(cache.answer('page', generation, () => ({})).render(0), {
      headers: { 'content-type': 'application/json', 'x-gate': 'passed' },
    });
  };
  const fetch = answerShortcut(app, answers, () => generation);
  const get = (target: string, method = 'GET') => fetch(new Request(`http://x${target}`, { method }));
  await get('/api/players');
  const again = await get('/api/players');
  expect(appCalls).toBe(1);
  expect(again.headers.get('x-gate')).toBe('passed');
  expect(Number(again.headers.get('content-length'))).toBe(Buffer.byteLength(await again.clone().text()));
  expect(((await again.json()) as { calls: number }).calls).toBe(1);
  await get('/api/players?other=1');
  await get('/api/players', 'POST');
  expect(appCalls).toBe(3);
  generation = 'g2';
  expect(((await (await get('/api/players')).json()) as { calls: number }).calls).toBe(4);
  // Targets past 512 characters are never remembered.
  const long = `/api/players?x=${'a'.repeat(600)}`;
  await get(long);
  await get(long);
  expect(appCalls).toBe(6);
});
