/**
 * @module Counts turns of the event loop (setImmediate callbacks) while work runs: work done in
 * one go gives none, work that yields between steps gives one or more per step.
 */
export function turnCounter(): () => number {
  let turns = 0;
  let running = true;
  const tick = () => {
    if (!running) return;
    turns++;
    setImmediate(tick);
  };
  setImmediate(tick);
  return () => {
    running = false;
    return turns;
  };
}
