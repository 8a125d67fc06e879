/**
 * @module `GET /observability/sessions`: every live terminal the caller may watch
 * (`terminal.view`) with its process tree, each process with its CPU time, average CPU use
 * since it started and resident memory, read from `/proc` (Linux; clock ticks of 100 Hz and
 * 4 KiB pages, the values of every Linux x86-64 and arm64 kernel).
 */
import { readFile } from 'node:fs/promises';
import type { Hono } from 'hono';
import { roleHas } from '../access/permissions.js';
import type { AppEnv, DaemonContext } from '../http/app-env.js';
import { descendants, type ProcessEntry, readProcessTable } from './agents/process-tree.js';
import { terminalRole } from './terminal-access.js';

const ticksPerSecond = 100;
const pageBytes = 4096;

async function uptimeSeconds(): Promise<number> {
  const text = await readFile('/proc/uptime', 'utf8').catch(() => '0');
  return Number(text.split(' ', 1)[0]) || 0;
}

function processView(entry: ProcessEntry, uptime: number) {
  const cpuSeconds = entry.cpuTicks / ticksPerSecond;
  const runningSeconds = uptime - entry.startTicks / ticksPerSecond;
  return {
    pid: entry.pid,
    ppid: entry.ppid,
    name: entry.comm,
    command: entry.argv.slice(0, 8),
    cpu_seconds: cpuSeconds,
    cpu_percent_avg: runningSeconds > 0 ? Math.round((cpuSeconds / runningSeconds) * 1000) / 10 : 0,
    rss_bytes: entry.rssPages * pageBytes,
  };
}

export function registerObservabilityRoutes(app: Hono<AppEnv>, { db, terminals }: DaemonContext): void {
  app.get('/observability/sessions', async (c) => {
    const visible = [];
    for (const session of terminals.list()) {
      const role = await terminalRole(db, c.var.principal, session);
      if (role && roleHas(role, 'terminal.view')) visible.push(session);
    }
    const [table, uptime] =
      visible.length > 0 ? await Promise.all([readProcessTable(), uptimeSeconds()]) : [[], 0];
    const sessions = visible.map((session) => {
      const shell = table.find((entry) => entry.pid === session.pid);
      const tree = [...(shell ? [shell] : []), ...descendants(table, session.pid)].map((entry) =>
        processView(entry, uptime),
      );
      return {
        terminal_id: session.info.id,
        project_id: session.info.projectId,
        processes: tree,
        cpu_seconds: tree.reduce((sum, entry) => sum + entry.cpu_seconds, 0),
        rss_bytes: tree.reduce((sum, entry) => sum + entry.rss_bytes, 0),
      };
    });
    return c.json({ sessions });
  });
}
