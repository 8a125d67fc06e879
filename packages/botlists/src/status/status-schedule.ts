/**
 * @module StatusSchedule: the hourly status probe of a long-running client, one probe at a time, on an unref'd timer.
 */

const DEFAULT_STATUS_INTERVAL_MS = 60 * 60_000;
/** Probing more often than the board is cached (5 min) would only hand back the cached board. */
const MIN_STATUS_INTERVAL_MS = 5 * 60_000;

/** The probe interval: the default for a missing or non-finite value, never below the minimum. */
export function statusIntervalMs(intervalMs = DEFAULT_STATUS_INTERVAL_MS): number {
  return Math.max(
    MIN_STATUS_INTERVAL_MS,
    Number.isFinite(intervalMs) ? intervalMs : DEFAULT_STATUS_INTERVAL_MS,
  );
}

interface StatusScheduleOptions {
  intervalMs: number;
  /** Runs one probe; must not reject (the owner reports its own errors). */
  probe: () => Promise<void>;
  /** Whether probes are wanted now; asked on every `sync()` and before every probe. */
  active: () => boolean;
}

/**
 * Probes once per interval while `active()` holds. The next probe is armed only when the previous
 * one has finished, so a slow probe delays the schedule instead of overlapping it.
 */
export class StatusSchedule {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private probing = false;

  constructor(private readonly options: StatusScheduleOptions) {}

  /** Arms the timer when probes are wanted and none is pending, disarms it when they are not. */
  sync(): void {
    if (!this.options.active()) {
      if (this.timer !== null) clearTimeout(this.timer);
      this.timer = null;
    } else if (this.timer === null && !this.probing) {
      this.timer = setTimeout(() => void this.run(), this.options.intervalMs);
      // A schedule of probes must never be the reason a bot process stays alive.
      this.timer.unref?.();
    }
  }

  /** True while probes are wanted and one is pending or running. */
  get isScheduled(): boolean {
    return this.timer !== null || (this.probing && this.options.active());
  }

  private async run(): Promise<void> {
    this.timer = null;
    if (!this.options.active()) return;
    this.probing = true;
    try {
      await this.options.probe();
    } finally {
      this.probing = false;
      this.sync();
    }
  }
}
