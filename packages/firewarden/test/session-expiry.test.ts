/**
 * @module Tests: sessions end after the idle timeout and after the absolute lifetime, moved forward
 * with the test-only clock hook (FIREWARDEN_TEST_CLOCK_FILE, honoured only with NODE_ENV=test on
 * loopback), through the running bin.
 */
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ApiClient } from './support/api-client.js';
import { startClockedServer } from './support/clocked-server.js';
import { adminPassword, type Installation } from './support/installation.js';
import { type RunningServer, startServer } from './support/running-bin.js';

const minute = 60_000;
let installation: Installation;
let server: RunningServer;
let clockFile: string;
let setClockOffset: (ms: number) => Promise<void>;

beforeAll(async () => {
  ({ installation, server, clockFile, setClockOffset } = await startClockedServer());
});

afterAll(async () => {
  await server.stop();
  await installation.remove();
});

describe('idle timeout (30 minutes by default)', () => {
  test('activity keeps a session alive; 31 idle minutes end it', async () => {
    await setClockOffset(0);
    const client = new ApiClient(server.url);
    expect((await client.login('admin', adminPassword)).status).toBe(200);
    await setClockOffset(20 * minute);
    expect((await client.get('/api/v1/settings')).status).toBe(200);
    // 20 minutes after that request: 40 minutes after login, but only 20 idle.
    await setClockOffset(40 * minute);
    expect((await client.get('/api/v1/settings')).status).toBe(200);
    await setClockOffset(71 * minute);
    const expired = await client.get('/api/v1/settings');
    expect(expired.status).toBe(401);
    expect(expired.body.error.code).toBe('AUTH_REQUIRED');
    expect((await client.get('/api/v1/auth/me')).body.data).toEqual({ authenticated: false });
  });

  test('the diagnostics say the test clock is active', async () => {
    await setClockOffset(0);
    const client = new ApiClient(server.url);
    await client.login('admin', adminPassword);
    expect((await client.get('/api/v1/system/diagnostics')).body.data.runtime.test_clock).toBe(true);
  });
});

describe('absolute lifetime', () => {
  test('ends a session in use once session_absolute_timeout_hours have passed', async () => {
    await setClockOffset(0);
    const client = new ApiClient(server.url);
    await client.login('admin', adminPassword);
    const changed = await client.put('/api/v1/settings', {
      security: { session_absolute_timeout_hours: 1, session_idle_timeout_minutes: 1_440 },
    });
    expect(changed.status).toBe(200);
    // Settings apply to sessions created from now on.
    await client.login('admin', adminPassword);
    for (const offset of [20, 40, 59]) {
      await setClockOffset(offset * minute);
      expect((await client.get('/api/v1/settings')).status).toBe(200);
    }
    await setClockOffset(61 * minute);
    expect((await client.get('/api/v1/settings')).status).toBe(401);
  });
});

describe('the hook is off outside tests', () => {
  test('without NODE_ENV=test the clock file is ignored and the log says so', async () => {
    await setClockOffset(0);
    const production = await startServer(['--config', installation.configFile], {
      FIREWARDEN_TEST_CLOCK_FILE: clockFile,
      NODE_ENV: 'production',
    });
    try {
      const client = new ApiClient(production.url);
      await client.login('admin', adminPassword);
      await setClockOffset(31 * minute);
      expect((await client.get('/api/v1/settings')).status).toBe(200);
      expect((await client.get('/api/v1/system/diagnostics')).body.data.runtime.test_clock).toBe(false);
    } finally {
      await production.stop();
      await setClockOffset(0);
    }
    const log = await readFile(installation.logFile, 'utf8');
    expect(log).toContain(
      'FIREWARDEN_TEST_CLOCK_FILE ignored: the test clock needs NODE_ENV=test and a loopback bind',
    );
  });
});
