/**
 * @module Points every registry URL of the built-in lists at a loopback fake: `https://host/path` → `<base>/<list id>/path`.
 */
import type { BotlistRecord, ListOverride } from '../../src/index.js';
import { lists } from '../../src/index.js';

const URL_FIELDS = ['apiPost', 'apiGet', 'apiVoted', 'apiSearch', 'website'] as const;

function rebase(url: string, base: string, id: string): string {
  const parsed = new URL(
    url
      .replaceAll(':id', '__ID__')
      .replaceAll(':userId', '__USER__')
      .replaceAll(':query', '__Q__')
      .replaceAll(':limit', '__L__'),
  );
  const rebuilt = `${base}/${id}${parsed.pathname}${parsed.search}`;
  return rebuilt
    .replaceAll('__ID__', ':id')
    .replaceAll('__USER__', ':userId')
    .replaceAll('__Q__', ':query')
    .replaceAll('__L__', ':limit');
}

/** Overrides for `new Botlists({ lists })` sending every list to the fake. */
export function rebasedOverrides(base: string, records: readonly BotlistRecord[] = lists): ListOverride[] {
  return records.map((record) => {
    const override: ListOverride = { id: record.id };
    for (const field of URL_FIELDS) {
      const value = record[field];
      if (value) override[field] = rebase(value, base, record.id);
    }
    if (record.metricsPost)
      override.metricsPost = { ...record.metricsPost, url: rebase(record.metricsPost.url, base, record.id) };
    if (record.commands)
      override.commands = { ...record.commands, url: rebase(record.commands.url, base, record.id) };
    return override;
  });
}
