/**
 * @module Drivers of stepped work (generators that yield between bounded steps): run at once,
 * or with a turn of the event loop between two steps. Both return what the work returns.
 */

/** Runs the steps synchronously to their end. */
export function runToEnd<Result>(steps: Generator<unknown, Result>): Result {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

/** Runs the steps, yielding to the event loop between two of them. */
export async function runInSteps<Result>(steps: Generator<unknown, Result>): Promise<Result> {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
    await new Promise((resolve) => setImmediate(resolve));
  }
}
