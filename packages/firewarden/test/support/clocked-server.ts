/**
 * @module A SQLite installation with an admin, served by the bin on the test-only clock
 * (FIREWARDEN_TEST_CLOCK_FILE with NODE_ENV=test): `setClockOffset(ms)` moves the server's time.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createInstallation, type Installation } from './installation.js';
import { type RunningServer, startServer } from './running-bin.js';

export interface ClockedServer {
  installation: Installation;
  server: RunningServer;
  clockFile: string;
  setClockOffset(ms: number): Promise<void>;
}

export async function startClockedServer(): Promise<ClockedServer> {
  const installation = (await createInstallation('sqlite'))!;
  const clockFile = path.join(installation.dir, 'clock-offset');
  const setClockOffset = (ms: number) => writeFile(clockFile, String(ms));
  await setClockOffset(0);
  await installation.createAdmin();
  const server = await startServer(['--config', installation.configFile], {
    FIREWARDEN_TEST_CLOCK_FILE: clockFile,
    NODE_ENV: 'test',
  });
  return { installation, server, clockFile, setClockOffset };
}
