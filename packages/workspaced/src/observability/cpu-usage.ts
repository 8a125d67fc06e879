/**
 * @module CPU use from `/proc/stat` (proc(5)): the kernel's cumulative jiffies per state, whole
 * machine (`cpu`) and per core (`cpuN`). Use over an interval is the share of non-idle jiffies
 * (idle and iowait count as idle) between two readings. Readings are taken on request, not by a
 * timer: a call compares with the previous reading when that is at least `minIntervalMs` old
 * (else it answers the last figures again); the very first call reads twice, `firstIntervalMs`
 * apart. So an idle daemon does no work, and any polling rate gives usage over a real interval.
 */
import { readFile } from 'node:fs/promises';

interface Counters {
  busy: number;
  total: number;
}

interface Reading {
  at: number;
  all: Counters;
  cores: Counters[];
}

export interface CpuUsage {
  cores: number;
  /** Percent of all cores, 0-100, one decimal. */
  usage_percent: number;
  per_core_percent: number[];
  /** The interval the figures cover. */
  interval_ms: number;
  measured_at: string;
}

function counters(fields: number[]): Counters {
  // user nice system idle iowait irq softirq steal (guest time is already inside user and nice)
  const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = fields;
  const busy = user + nice + system + irq + softirq + steal;
  return { busy, total: busy + idle + iowait };
}

function parseProcStat(text: string, at: number): Reading {
  const reading: Reading = { at, all: { busy: 0, total: 0 }, cores: [] };
  for (const line of text.split('\n')) {
    // Fields split first, so no pattern ever scans a long run of spaces twice.
    const [label = '', ...fields] = line.trim().split(/\s+/);
    const match = /^cpu(\d*)$/.exec(label);
    if (!match || fields.length === 0) continue;
    const values = counters(fields.map(Number));
    if (match[1] === '') reading.all = values;
    else reading.cores[Number(match[1])] = values;
  }
  return reading;
}

function percent(before: Counters, after: Counters): number {
  const total = after.total - before.total;
  if (total <= 0) return 0;
  return Math.round(((after.busy - before.busy) / total) * 1000) / 10;
}

/** A reading younger than this is not compared against (too few jiffies to mean much). */
const minIntervalMs = 1_000;
/** The first call's own interval. */
const firstIntervalMs = 250;

export function createCpuSampler(): () => Promise<CpuUsage> {
  let previous: Reading | undefined;
  let last: CpuUsage | undefined;
  const take = async () => parseProcStat(await readFile('/proc/stat', 'utf8'), Date.now());

  return async () => {
    if (!previous) {
      previous = await take();
      await new Promise((resolve) => setTimeout(resolve, firstIntervalMs));
    } else if (last && Date.now() - previous.at < minIntervalMs) {
      return last;
    }
    const current = await take();
    const before = previous;
    last = {
      cores: current.cores.length,
      usage_percent: percent(before.all, current.all),
      per_core_percent: current.cores.map((core, index) =>
        before.cores[index] ? percent(before.cores[index], core) : 0,
      ),
      interval_ms: current.at - before.at,
      measured_at: new Date(current.at).toISOString(),
    };
    previous = current;
    return last;
  };
}
