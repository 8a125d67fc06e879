/**
 * @module Tests: `GET /observability/host` through the bin: CPU use over a real interval (and a
 * busy loop in the test shows up in it), memory as /proc/meminfo says, load, the data dir's and
 * the root file system's figures as statfs says, uptime.
 */
import { statfsSync } from 'node:fs';
import os from 'node:os';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type Client, type RunningDaemon, removeDataDir, setupOwner, startDaemon } from './support/daemon.js';

let daemon: RunningDaemon;
let owner: Client;

beforeAll(async () => {
  daemon = await startDaemon();
  owner = await setupOwner(daemon);
});

afterAll(async () => {
  expect(await daemon.stop()).toBe(0);
  await removeDataDir(daemon);
});

function busyFor(ms: number): void {
  const end = Date.now() + ms;
  while (Date.now() < end) {}
}

test('CPU: one figure per core, percentages within 0-100, over a real interval', async () => {
  const answer = await owner.get('/observability/host');
  expect(answer.status).toBe(200);
  const { cpu } = answer.body;
  expect(cpu.cores).toBe(os.cpus().length);
  expect(cpu.per_core_percent).toHaveLength(os.cpus().length);
  for (const value of [cpu.usage_percent, ...cpu.per_core_percent]) {
    expect(value).toBeGreaterThanOrEqual(0);
    expect(value).toBeLessThanOrEqual(100);
  }
  expect(cpu.interval_ms).toBeGreaterThanOrEqual(200);
  expect(Date.parse(cpu.measured_at)).not.toBeNaN();
});

test('CPU: a core kept busy by the test shows in the next interval', async () => {
  await owner.get('/observability/host');
  busyFor(1_200);
  const { cpu } = (await owner.get('/observability/host')).body;
  expect(cpu.interval_ms).toBeGreaterThanOrEqual(1_000);
  // A whole core was busy for nearly all of the interval (the scheduler may spread it over cores).
  const busyCores = cpu.per_core_percent.reduce((sum: number, value: number) => sum + value, 0) / 100;
  expect(busyCores).toBeGreaterThan(0.6);
  expect(cpu.usage_percent).toBeGreaterThan(60 / os.cpus().length);
});

test('memory, load, disks and uptime agree with the kernel', async () => {
  const body = (await owner.get('/observability/host')).body;
  const { memory } = body;
  expect(memory.total_bytes).toBe(os.totalmem());
  expect(memory.available_bytes).toBeGreaterThan(0);
  expect(memory.available_bytes).toBeLessThanOrEqual(memory.total_bytes);
  expect(memory.used_bytes).toBe(memory.total_bytes - memory.available_bytes);
  expect(memory.free_bytes).toBeLessThanOrEqual(memory.total_bytes);
  expect(memory.swap_free_bytes).toBeLessThanOrEqual(memory.swap_total_bytes);

  expect(Object.keys(body.load)).toEqual(['1m', '5m', '15m']);
  for (const value of Object.values(body.load)) expect(value).toBeGreaterThanOrEqual(0);

  expect(body.disks.map((disk: { mount: string }) => disk.mount)).toEqual(['data_dir', 'root']);
  for (const disk of body.disks) {
    const stats = statfsSync(disk.path);
    expect(disk.total_bytes).toBe(stats.blocks * stats.bsize);
    expect(disk.used_bytes).toBeLessThanOrEqual(disk.total_bytes);
    expect(disk.used_percent).toBeGreaterThanOrEqual(0);
    expect(disk.used_percent).toBeLessThanOrEqual(100);
  }
  expect(body.disks[1].path).toBe('/');
  expect(body.uptime_secs).toBeGreaterThan(0);
  expect(body.uptime_secs).toBeLessThanOrEqual(Math.ceil(os.uptime()) + 1);
});
