/**
 * @module Tests: the config file's agent profiles are checked at start-up: a file the daemon
 * cannot use stops it (exit 1, the reason on stderr, no listening line) instead of running
 * without the profiles meant; a missing default file means no extra profiles.
 */
import { spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { cliPath } from './support/daemon.js';
import { removeScratchDirs, scratchDir } from './support/scratch.js';

afterAll(removeScratchDirs);

async function serveWith(config: string | undefined) {
  const folder = await scratchDir('profile-config');
  const file = path.join(folder, 'config.json');
  if (config !== undefined) await writeFile(file, config);
  return spawnSync(
    process.execPath,
    [cliPath, 'serve', '--port', '0', '--data-dir', path.join(folder, 'ws'), '--config', file],
    { encoding: 'utf8', timeout: 20_000 },
  );
}

const profile = { name: 'mine', command: 'my-agent', args: ['{prompt}'], prompt_via: 'argument' };

test.each([
  ['missing file', undefined, 'cannot read the config file'],
  ['not JSON', '{agent_profiles: [', 'is not valid JSON'],
  ['unknown key', JSON.stringify({ agent_profile: [] }), 'Unrecognized key'],
  [
    'argument without {prompt}',
    JSON.stringify({ agent_profiles: [{ ...profile, args: [] }] }),
    'needs {prompt} in args',
  ],
  [
    'file without {prompt_file}',
    JSON.stringify({ agent_profiles: [{ ...profile, prompt_via: 'file' }] }),
    'needs {prompt_file} in args',
  ],
  [
    'stdin with a placeholder',
    JSON.stringify({ agent_profiles: [{ ...profile, prompt_via: 'stdin' }] }),
    'has no value',
  ],
  [
    'relative command path',
    JSON.stringify({ agent_profiles: [{ ...profile, command: 'bin/agent' }] }),
    'absolute path',
  ],
  [
    'bad name',
    JSON.stringify({ agent_profiles: [{ ...profile, name: 'Bad Name' }] }),
    'agent_profiles.0.name',
  ],
  ['repeated name', JSON.stringify({ agent_profiles: [profile, profile] }), 'profile names must be unique'],
])('%s: the daemon does not start', async (_case, config, reason) => {
  const result = await serveWith(config);
  expect(result.status).toBe(1);
  expect(result.stderr).toContain('workspaced: ');
  expect(result.stderr).toContain(reason);
  expect(result.stdout).not.toContain('listening on');
});
