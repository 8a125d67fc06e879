/**
 * @module Work over a list done a bounded number of items at a time: the server runs a large
 * validation or analysis a slice per turn of the event loop, so the other requests it serves are
 * answered in between; other callers finish it at once.
 */
export interface SteppedWork<Result> {
  /** Does up to `items` more items; true once every item is done. */
  advance(items: number): boolean;
  result(): Result;
}

export function finishNow<Result>(work: SteppedWork<Result>): Result {
  work.advance(Number.POSITIVE_INFINITY);
  return work.result();
}

/** Runs `itemsPerTurn` items, then lets the event loop serve others, until the work is done. */
export async function finishInTurns<Result>(
  work: SteppedWork<Result>,
  itemsPerTurn: number,
): Promise<Result> {
  while (!work.advance(itemsPerTurn)) await new Promise((resolve) => setImmediate(resolve));
  return work.result();
}
