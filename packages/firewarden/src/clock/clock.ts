/**
 * @module The service's clock, injectable so tests can move time forward (session idle expiry)
 * without waiting. Production always uses the system clock.
 */
import { readFileSync } from 'node:fs';

/** Epoch milliseconds. */
export type Clock = () => number;

export const systemClock: Clock = () => Date.now();

/**
 * Test hook: `FIREWARDEN_TEST_CLOCK_FILE` names a file holding an offset in milliseconds that is
 * added to the system time, re-read on every call. It is honoured only when `NODE_ENV=test` AND
 * the server binds to loopback, so a stray variable on a production host does nothing (the
 * server logs a warning instead).
 */
const testClockVariable = 'FIREWARDEN_TEST_CLOCK_FILE';

interface ClockChoice {
  clock: Clock;
  /** Set when the test clock was requested but refused, for the log. */
  refused?: string;
  testClock: boolean;
}

export function chooseClock(environment: NodeJS.ProcessEnv, loopbackBind: boolean): ClockChoice {
  const file = environment[testClockVariable];
  if (!file) return { clock: systemClock, testClock: false };
  if (environment.NODE_ENV !== 'test' || !loopbackBind) {
    return {
      clock: systemClock,
      testClock: false,
      refused: `${testClockVariable} ignored: the test clock needs NODE_ENV=test and a loopback bind`,
    };
  }
  return { clock: () => Date.now() + readOffset(file), testClock: true };
}

function readOffset(file: string): number {
  try {
    const offset = Number(readFileSync(file, 'utf8').trim());
    return Number.isFinite(offset) ? offset : 0;
  } catch {
    return 0;
  }
}
