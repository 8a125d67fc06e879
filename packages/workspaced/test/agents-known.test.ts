/**
 * @module Tests: `GET /agents/known` through the bin: every agent the daemon recognizes, with the
 * first executable of that name on the daemon's PATH (which `which` would run): a
 * non-executable file, a folder and a relative PATH entry are passed over; viewers may read it,
 * anonymous callers may not.
 */
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { startBin } from '@suite/test-kit';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  Client,
  cliPath,
  type RunningDaemon,
  removeDataDir,
  setupOwner,
  userClient,
} from './support/daemon.js';
import { removeScratchDirs, scratchDir } from './support/scratch.js';

const knownNames = [
  'claude',
  'codex',
  'gemini',
  'opencode',
  'aider',
  'cursor-agent',
  'amp',
  'qwen',
  'goose',
  'copilot',
  'hermes',
];

async function script(file: string, mode: number): Promise<void> {
  await writeFile(file, '#!/bin/sh\necho stand-in\n');
  await chmod(file, mode);
}

describe('GET /agents/known', () => {
  let daemon: RunningDaemon;
  let first: string;
  let second: string;

  beforeAll(async () => {
    first = await scratchDir('agents-first');
    second = await scratchDir('agents-second');
    await script(path.join(first, 'gemini'), 0o644);
    await mkdir(path.join(first, 'aider'));
    await script(path.join(first, 'codex'), 0o755);
    await script(path.join(second, 'codex'), 0o755);
    await script(path.join(second, 'gemini'), 0o755);
    await script(path.join(second, 'qwen'), 0o755);
    const dataDir = path.join(await scratchDir('agents-data'), 'ws');
    const running = await startBin(cliPath, {
      args: ['serve', '--host', '127.0.0.1', '--port', '0', '--data-dir', dataDir],
      env: {
        ...process.env,
        LOG_LEVEL: 'warn',
        PATH: [first, 'relative/bin', second, process.env.PATH ?? ''].join(path.delimiter),
      },
    });
    daemon = { ...running, dataDir };
  });
  afterAll(async () => {
    await daemon?.stop();
    if (daemon) await removeDataDir(daemon);
    await removeScratchDirs();
  });

  test('lists every recognized agent with the first executable of its name on the PATH', async () => {
    const owner = await setupOwner(daemon);
    const answer = await owner.get('/agents/known');
    expect(answer.status).toBe(200);
    const agents = answer.body.agents as { name: string; path: string | null }[];
    expect(agents.map((agent) => agent.name)).toEqual(knownNames);
    const pathOf = (name: string) => agents.find((agent) => agent.name === name)?.path;
    expect(pathOf('codex')).toBe(path.join(first, 'codex'));
    // Not executable in the first folder: the second one's.
    expect(pathOf('gemini')).toBe(path.join(second, 'gemini'));
    expect(pathOf('qwen')).toBe(path.join(second, 'qwen'));
    // A folder named like an agent is no program.
    expect(pathOf('aider')).not.toBe(path.join(first, 'aider'));

    const viewer = (await userClient(daemon, owner, 'watcher', 'viewer')).client;
    expect((await viewer.get('/agents/known')).body).toEqual(answer.body);
    const anonymous = await new Client(daemon.url).get('/agents/known');
    expect(anonymous.status).toBe(401);
  });
});
