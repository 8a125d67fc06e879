/**
 * @module Answer caches are keyed by the parameters an endpoint reads and bounded in bytes
 * unknown parameters neither split nor grow the cache.
 */
import { describe, expect, it } from 'vitest';
import {
  createAnswerMemo,
  createApp,
  defineEndpoint,
  staticCardCache,
  svgDocument,
  text,
} from '../../src/index.js';

let renders = 0;
const counted = defineEndpoint({
  path: '/counted',
  summary: 'Counts its renders.',
  cache: staticCardCache,
  pure: true,
  params: {
    word: text({ description: 'A word.', max: 10, default: 'a' }),
    other: text({ description: 'More.', max: 10, default: 'b' }),
  },
  render({ word, other }) {
    renders++;
    return svgDocument({ width: 10, height: 10, title: `${word} ${other}`, body: '' });
  },
});

describe('answer memo keys', () => {
  it('ignores parameters the endpoint does not read, and their order', async () => {
    const app = createApp({ endpoints: [counted] });
    renders = 0;
    const junk = 'x'.repeat(15_000);
    const bodies = new Set<string>();
    for (let index = 0; index < 50; index++) {
      const response = await app.request(`/counted?utm_${index}=${junk}&word=memo&other=two`);
      expect(response.status).toBe(200);
      bodies.add(await response.text());
    }
    await app.request('/counted?other=two&word=memo');
    expect(renders).toBe(1);
    expect(bodies.size).toBe(1);
    // The first value of a parameter still wins, as when the whole query was the key.
    expect(await (await app.request('/counted?word=first&word=second')).text()).toContain('first b');
    expect(renders).toBe(2);
  });

  it('bounds the memo in bytes, keys included', () => {
    const memo = createAnswerMemo({ maxEntries: 10_000, maxBytes: 200_000 });
    for (let index = 0; index < 100; index++) {
      memo.set(`/counted?word=${index}${'k'.repeat(15_000)}`, { status: 200, body: 'x', headers: {} });
    }
    expect(memo.calculatedSize).toBeLessThanOrEqual(200_000);
    // Each entry weighs at least its key in UTF-16 bytes (2 per character).
    expect(memo.size).toBeLessThanOrEqual(Math.floor(200_000 / 30_000));
  });
});
