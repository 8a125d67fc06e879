/**
 * @module Tests: `GET /observability/sessions` through the bin: a terminal's process tree (the
 * shell, its children) with memory and CPU from `/proc`, and only for callers who may watch it.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type Client, type RunningDaemon, userClient } from './support/daemon.js';
import { startProjectDaemon, stopProjectDaemon } from './support/project-daemon.js';

let daemon: RunningDaemon;
let owner: Client;
let projectId: number;

beforeAll(async () => {
  ({ daemon, owner, projectId } = await startProjectDaemon('obs'));
});

afterAll(() => stopProjectDaemon(daemon));

interface ProcessView {
  pid: number;
  ppid: number;
  name: string;
  command: string[];
  cpu_seconds: number;
  rss_bytes: number;
}

test('a terminal shows its shell and children with CPU and memory; others see nothing', async () => {
  const terminal = (await owner.post('/terminals', { project_id: projectId, shell: '/bin/sh' })).body;
  // A busy loop (CPU) in a child shell, then a sleep below it.
  await owner.post(`/terminals/${terminal.id}/input`, {
    data: "sh -c 'i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done; exec sleep 30'\r",
  });
  let session: { terminal_id: number; processes: ProcessView[]; rss_bytes: number } | undefined;
  for (let i = 0; i < 150; i++) {
    const answer = await owner.get('/observability/sessions');
    expect(answer.status).toBe(200);
    session = answer.body.sessions.find((s: { terminal_id: number }) => s.terminal_id === terminal.id);
    if (session?.processes.some((p) => p.name === 'sleep')) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const [shell, ...children] = session!.processes;
  expect(shell).toMatchObject({ pid: terminal.pid, command: ['/bin/sh'] });
  const sleeper = children.find((p) => p.name === 'sleep')!;
  expect(sleeper.command).toEqual(['sleep', '30']);
  expect(sleeper.ppid).toBe(terminal.pid);
  // The loop ran in the process that became `sleep` (exec keeps the pid and its CPU time).
  expect(sleeper.cpu_seconds).toBeGreaterThan(0);
  expect(shell!.rss_bytes).toBeGreaterThan(0);
  expect(session!.rss_bytes).toBe(session!.processes.reduce((sum, p) => sum + p.rss_bytes, 0));

  const outsider = await userClient(daemon, owner, 'outsider', 'developer');
  expect((await outsider.client.get('/observability/sessions')).body.sessions).toEqual([]);
  await owner.post(`/terminals/${terminal.id}/terminate`);
});
