/**
 * @module Tests: the one-time setup token through the bin. A daemon on a data dir without an owner
 * writes `<data-dir>/setup-token` (0600) and prints the setup URL after its listening line;
 * `POST /setup` without the token, or with a wrong one, is 401 `SETUP_TOKEN_INVALID` and creates
 * nobody; with it the owner is created and the file deleted; a restart makes a new token and the
 * old one stops working; `--setup-open` keeps setup open to the first caller.
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import {
  Client,
  ownerPassword,
  type RunningDaemon,
  readSetupToken,
  removeDataDir,
  startDaemon,
} from './support/daemon.js';

const started: RunningDaemon[] = [];

async function start(options: Parameters<typeof startDaemon>[0] = {}): Promise<RunningDaemon> {
  const daemon = await startDaemon({ setupOpen: false, ...options });
  started.push(daemon);
  return daemon;
}

afterAll(async () => {
  for (const daemon of started) await daemon.stop();
  // Restarts share a data dir: remove each once.
  const dirs = new Map(started.map((daemon) => [daemon.dataDir, daemon]));
  for (const daemon of dirs.values()) await removeDataDir(daemon);
});

/** The setup line follows the listening line, maybe in a later chunk of output. */
async function setupLine(daemon: RunningDaemon): Promise<string> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const line = daemon.stdout().split('\n')[1];
    if (line) return line;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no setup line after the listening line: ${daemon.stdout()}`);
}

const owner = { username: 'owner', display_name: 'Owner', password: ownerPassword };
const tokenFile = (daemon: RunningDaemon) => path.join(daemon.dataDir, 'setup-token');

describe('a daemon without an owner', () => {
  test('writes the token to a 0600 file and prints the setup URL after the listening line', async () => {
    const daemon = await start();
    const token = await readSetupToken(daemon);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(statSync(tokenFile(daemon)).mode & 0o777).toBe(0o600);
    const line = await setupLine(daemon);
    expect(daemon.stdout().split('\n')[0]).toBe(`listening on ${daemon.url}`);
    expect(line).toContain(`${daemon.url}/setup#token=${token} `);
    expect(line).toContain(tokenFile(daemon));
    expect((await new Client(daemon.url).get('/setup')).body).toEqual({
      setup_pending: true,
      setup_token_required: true,
    });
  });

  test('refuses setup without the token or with a wrong one (401 SETUP_TOKEN_INVALID), creating nobody', async () => {
    const daemon = await start();
    const token = (await readSetupToken(daemon))!;
    for (const attempt of [
      owner,
      { ...owner, setup_token: '' },
      { ...owner, setup_token: `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}` },
      { ...owner, setup_token: `${token}x` },
    ]) {
      const refused = await new Client(daemon.url).post('/setup', attempt);
      expect(refused.status).toBe(401);
      expect(refused.body.error.code).toBe('SETUP_TOKEN_INVALID');
      expect(refused.headers.get('set-cookie')).toBeNull();
    }
    expect((await new Client(daemon.url).get('/setup')).body.setup_pending).toBe(true);

    const client = new Client(daemon.url);
    const created = await client.post('/setup', { ...owner, setup_token: token });
    expect(created.status).toBe(201);
    expect(created.body.user.role).toBe('owner');
    expect(existsSync(tokenFile(daemon))).toBe(false);
    // Spent: the same token (or none) now meets the existing owner.
    const again = await new Client(daemon.url).post('/setup', {
      ...owner,
      username: 'late',
      setup_token: token,
    });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('SETUP_COMPLETE');
    const audit = await client.get('/audit?limit=50');
    expect(
      audit.body.entries.filter((entry: { action: string }) => entry.action === 'auth.setup'),
    ).toContainEqual(expect.objectContaining({ outcome: 'denied' }));
  });

  test('a restart makes a new token and voids the old one; once an owner exists none is made', async () => {
    const first = await start();
    const oldToken = (await readSetupToken(first))!;
    expect(await first.stop()).toBe(0);
    const second = await start({ dataDir: first.dataDir });
    const newToken = (await readSetupToken(second))!;
    expect(newToken).not.toBe(oldToken);
    const stale = await new Client(second.url).post('/setup', { ...owner, setup_token: oldToken });
    expect(stale.body.error.code).toBe('SETUP_TOKEN_INVALID');
    expect((await new Client(second.url).post('/setup', { ...owner, setup_token: newToken })).status).toBe(
      201,
    );
    expect(await second.stop()).toBe(0);

    const third = await start({ dataDir: first.dataDir });
    expect(third.stdout()).toBe(`listening on ${third.url}\n`);
    expect(existsSync(tokenFile(third))).toBe(false);
    expect((await new Client(third.url).get('/setup')).body).toEqual({
      setup_pending: false,
      setup_token_required: false,
    });
  });

  test('--setup-open lets the first caller set up without a token and makes no file', async () => {
    const daemon = await start({ setupOpen: true });
    expect(existsSync(tokenFile(daemon))).toBe(false);
    expect(daemon.stdout()).toBe(`listening on ${daemon.url}\n`);
    expect((await new Client(daemon.url).get('/setup')).body.setup_token_required).toBe(false);
    expect((await new Client(daemon.url).post('/setup', owner)).status).toBe(201);
  });
});
