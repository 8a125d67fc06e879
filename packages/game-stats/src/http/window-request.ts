/**
 * @module The window a leaderboard or summary request asks for (`since`, `period`), resolved to
 * the history snapshot its gains are measured from; a bad value is the spec's 400.
 */
import type { StatHistory, WindowStart } from '../history/stat-history.js';
import { WindowError, windowStartOf } from '../history/time-window.js';
import type { ApiContext } from './api-context.js';
import { BadRequest } from './parse-request.js';

/** Waits, when a window is asked for, until the history is restored (right after a start). */
export async function historyReady(
  query: { since?: string; period?: string },
  history: StatHistory | undefined,
): Promise<void> {
  if (query.since !== undefined || query.period !== undefined) await history?.whenReady();
}

export function requestedWindow(
  context: ApiContext,
  query: { since?: string; period?: 'day' | 'week' | 'month' },
  history: StatHistory | undefined,
): RequestedWindow | null {
  let start: number | null;
  try {
    start = windowStartOf(query, Date.now(), context.config['history-time-zone']);
  } catch (error) {
    if (error instanceof WindowError) throw new BadRequest(`Invalid query parameter: ${error.message}`);
    throw error;
  }
  if (start === null) return null;
  if (!history) throw new BadRequest('Invalid query parameter: this instance keeps no history');
  return { ...history.windowStart(start), asked: start };
}

/** The snapshot a window is measured from, and the start the request asked for. */
export interface RequestedWindow extends WindowStart {
  asked: number;
}

/** The `window` field of an answer. */
export function windowBody(window: WindowStart) {
  return { from: new Date(window.from).toISOString(), complete: window.complete };
}
