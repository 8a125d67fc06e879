/**
 * @module `GET /observability/host`: CPU use over a recent interval (`cpu-usage.ts`), memory from
 * `/proc/meminfo` (kB values, proc(5)), load averages, the file systems holding the data dir and
 * `/` (statfs), and uptime.
 */
import { readFile, statfs } from 'node:fs/promises';
import os from 'node:os';
import type { CpuUsage } from './cpu-usage.js';

interface MemoryFigures {
  total_bytes: number;
  /** MemAvailable: what programs can still get without swapping (kernel estimate). */
  available_bytes: number;
  used_bytes: number;
  free_bytes: number;
  buffers_bytes: number;
  cached_bytes: number;
  swap_total_bytes: number;
  swap_free_bytes: number;
}

async function readMemory(): Promise<MemoryFigures> {
  const text = await readFile('/proc/meminfo', 'utf8');
  const kib = new Map<string, number>();
  for (const line of text.split('\n')) {
    const match = /^(\w+):\s+(\d+)/.exec(line);
    if (match) kib.set(match[1]!, Number(match[2]) * 1024);
  }
  const total = kib.get('MemTotal') ?? os.totalmem();
  // Kernels before 3.14 lack MemAvailable; free memory is the closest older figure.
  const available = kib.get('MemAvailable') ?? kib.get('MemFree') ?? os.freemem();
  return {
    total_bytes: total,
    available_bytes: available,
    used_bytes: total - available,
    free_bytes: kib.get('MemFree') ?? os.freemem(),
    buffers_bytes: kib.get('Buffers') ?? 0,
    cached_bytes: kib.get('Cached') ?? 0,
    swap_total_bytes: kib.get('SwapTotal') ?? 0,
    swap_free_bytes: kib.get('SwapFree') ?? 0,
  };
}

interface DiskFigures {
  /** `data_dir` or `root`. */
  mount: string;
  path: string;
  total_bytes: number;
  /** Free for an unprivileged user (root may use a reserved part beyond it). */
  available_bytes: number;
  used_bytes: number;
  used_percent: number;
}

async function readDisk(mount: string, path: string): Promise<DiskFigures> {
  const stats = await statfs(path);
  const total = stats.blocks * stats.bsize;
  const used = (stats.blocks - stats.bfree) * stats.bsize;
  const available = stats.bavail * stats.bsize;
  // df's Use%: used over what non-root users can reach (used + available).
  const reachable = used + available;
  return {
    mount,
    path,
    total_bytes: total,
    available_bytes: available,
    used_bytes: used,
    used_percent: reachable > 0 ? Math.round((used / reachable) * 1000) / 10 : 0,
  };
}

interface HostMetrics {
  cpu: CpuUsage;
  memory: MemoryFigures;
  load: { '1m': number; '5m': number; '15m': number };
  disks: DiskFigures[];
  uptime_secs: number;
}

export async function hostMetrics(dataDir: string, cpu: () => Promise<CpuUsage>): Promise<HostMetrics> {
  const [cpuUsage, memory, dataDisk, rootDisk] = await Promise.all([
    cpu(),
    readMemory(),
    readDisk('data_dir', dataDir),
    readDisk('root', '/'),
  ]);
  const [one = 0, five = 0, fifteen = 0] = os.loadavg();
  return {
    cpu: cpuUsage,
    memory,
    load: { '1m': one, '5m': five, '15m': fifteen },
    disks: [dataDisk, rootDisk],
    uptime_secs: Math.floor(os.uptime()),
  };
}
