/**
 * @module `GET /services/host`: what this machine is (host name, operating system and
 * distribution, kernel, architecture, CPUs, total memory, uptime) and the daemon's own process.
 * The distribution comes from `/etc/os-release` (os-release(5)); everything else from `node:os`.
 * Figures that change by the second (CPU use, free memory, load, disks) are
 * `GET /observability/host`.
 */
import { readFile } from 'node:fs/promises';
import os from 'node:os';

/** `PRETTY_NAME` of os-release(5), unquoted; null when the file is absent. */
async function distributionName(): Promise<string | null> {
  for (const file of ['/etc/os-release', '/usr/lib/os-release']) {
    const text = await readFile(file, 'utf8').catch(() => undefined);
    if (text === undefined) continue;
    const line = text.split('\n').find((entry) => entry.startsWith('PRETTY_NAME='));
    if (!line) return null;
    return line.slice('PRETTY_NAME='.length).replace(/^(["'])(.*)\1$/, '$2');
  }
  return null;
}

interface HostSnapshot {
  hostname: string;
  os: { platform: string; type: string; distribution: string | null };
  kernel: { release: string; version: string };
  arch: string;
  cpus: { count: number; model: string | null };
  memory_total_bytes: number;
  uptime_secs: number;
  daemon: { pid: number; uptime_secs: number; node_version: string };
}

export async function hostSnapshot(daemonStartedAt: number): Promise<HostSnapshot> {
  const cpus = os.cpus();
  return {
    hostname: os.hostname(),
    os: { platform: process.platform, type: os.type(), distribution: await distributionName() },
    kernel: { release: os.release(), version: os.version() },
    arch: os.arch(),
    cpus: { count: cpus.length, model: cpus[0]?.model.trim() ?? null },
    memory_total_bytes: os.totalmem(),
    uptime_secs: Math.floor(os.uptime()),
    daemon: {
      pid: process.pid,
      uptime_secs: Math.floor((Date.now() - daemonStartedAt) / 1000),
      node_version: process.version,
    },
  };
}
