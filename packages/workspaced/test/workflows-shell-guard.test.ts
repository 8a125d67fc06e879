/**
 * @module Tests: the workflow "no shell" guard through `POST /workflows`. A placeholder may never
 * land where a program reads code (a shell's `-c` script, `node -e`, `perl -e`, an awk program,
 * ...), whatever options or wrappers (`env`, `nice`, `sudo`, `xargs`, ...) stand around it, and
 * never names the program itself; values passed as ordinary arguments keep working.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Client, type RunningDaemon, removeDataDir, setupOwner, startDaemon } from './support/daemon.js';
import { removeScratchDirs, scratchDir } from './support/scratch.js';

let daemon: RunningDaemon;
let owner: Client;
let defined = 0;

beforeAll(async () => {
  daemon = await startDaemon();
  owner = await setupOwner(daemon);
});

afterAll(async () => {
  expect(await daemon.stop()).toBe(0);
  await removeDataDir(daemon);
  await removeScratchDirs();
});

function define(command: string) {
  defined += 1;
  return owner.post('/workflows', { name: `w${defined}`, steps: [{ name: 's', kind: 'agent', command }] });
}

describe('refuses a placeholder where it would run as code', () => {
  test.each([
    // The bypasses issue 23 found.
    'sh -o errexit -c {{x}}',
    'bash --norc -c {{x}}',
    'env sh -c {{x}}',
    'nice sh -c {{x}}',
    'sh -c -- {{x}}',
    'node -e {{x}}',
    'perl -e {{x}}',
    // Shells: option clusters, options after -c, absolute paths, other shells.
    "sh -c 'echo {{x}}'",
    '/bin/bash -lc {{x}}',
    'bash -c -o errexit {{x}}',
    'bash -c -x {{x}}',
    'sh -e -c -u {{x}}',
    'bash -O extglob -c {{x}}',
    'sh +o errexit -c {{x}}',
    'sh -o {{x}} -c true',
    'zsh -fc {{x}}',
    'dash -c {{x}}',
    'fish -c {{x}}',
    'fish --command {{x}}',
    'fish --command={{x}}',
    'busybox sh -c {{x}}',
    'busybox ash -c {{x}}',
    'csh -c {{x}}',
    // Wrappers, with and without their own options.
    'env -i PATH=/usr/bin sh -c {{x}}',
    '/usr/bin/env bash -c {{x}}',
    'nice -n 5 sh -c {{x}}',
    'nohup sh -c {{x}}',
    'timeout 10 sh -c {{x}}',
    'timeout -s KILL 10 bash -c {{x}}',
    'stdbuf -oL sh -c {{x}}',
    'ionice -c 3 sh -c {{x}}',
    'chrt -b 0 sh -c {{x}}',
    'taskset 0x1 sh -c {{x}}',
    'xargs -0 sh -c {{x}}',
    'sudo -u root sh -c {{x}}',
    'doas sh -c {{x}}',
    'setsid sh -c {{x}}',
    'time sh -c {{x}}',
    'command sh -c {{x}}',
    'exec sh -c {{x}}',
    'find . -exec sh -c {{x}} ;',
    'env -S {{x}}',
    'env --split-string={{x}}',
    'su -c {{x}} root',
    'flock /tmp/lock -c {{x}}',
    'script -qc {{x}} /dev/null',
    'watch {{x}}',
    'ssh host {{x}}',
    // Interpreters that take code as an option's argument.
    'node --eval {{x}}',
    'node --eval={{x}}',
    'node -p {{x}}',
    'node -r {{x}} app.js',
    'node --import {{x}} app.js',
    // After inline code a value could still be read as an option (node -e A --eval=B runs B).
    "node -e 'console.log(1)' {{x}}",
    "perl -e 'print 1' {{x}}",
    'sed -e s/a/b/ {{file}}',
    'node {{x}} app.js',
    'nodejs -e {{x}}',
    'perl -ne {{x}}',
    'perl -E {{x}}',
    'perl -e{{x}}',
    'perl -M{{x}} -e 1',
    'python -c {{x}}',
    'python3 -c {{x}}',
    '/usr/bin/python3.11 -Ic {{x}}',
    'python3 -W ignore -c {{x}}',
    'python3 -m {{x}}',
    'pypy3 -c {{x}}',
    'ruby -e {{x}}',
    'ruby -r{{x}} -e 1',
    'php -r {{x}}',
    'php -d {{x}} script.php',
    'pwsh -Command {{x}}',
    'pwsh -c {{x}}',
    'powershell -EncodedCommand {{x}}',
    'pwsh -NoProfile {{x}}',
    'deno eval {{x}}',
    'bun -e {{x}}',
    'bun --eval {{x}}',
    'lua -e {{x}}',
    'Rscript -e {{x}}',
    'julia -e {{x}}',
    'osascript -e {{x}}',
    // Program text as the first operand.
    'awk {{x}}',
    'awk -F : {{x}} /etc/passwd',
    'gawk -e {{x}}',
    'sed {{x}} file.txt',
    'sed -n -e {{x}} file.txt',
    'sed --expression={{x}} file.txt',
    // A value never chooses the program, directly or behind a wrapper.
    '{{x}} -c true',
    'env {{x}} -c {{y}}',
    'nice -n 5 {{x}} -c {{y}}',
    'timeout 10 {{x}} -c {{y}}',
    'sudo -u root {{x}}',
  ])('%s', async (command) => {
    const answer = await define(command);
    expect([answer.status, answer.body.error.code], JSON.stringify(answer.body)).toEqual([
      400,
      'VALIDATION_FAILED',
    ]);
  });
});

describe('keeps commands that pass values as plain arguments', () => {
  test.each([
    'printf %s {{x}}',
    'git commit -m "fix: {{title}}"',
    'sh -c \'printf "%s" "$1"\' step {{x}}',
    'bash -c \'echo "$1"\' bash {{x}}',
    'sh -c -- \'echo "$1"\' step {{x}}',
    'sh script.sh {{x}}',
    'bash ./deploy.sh --target {{x}}',
    'node app.js {{x}}',
    'node app.js --name={{x}}',
    "node -e 'console.log(process.argv[1])' -- {{x}}",
    "perl -e 'print $ARGV[0]' -- {{x}}",
    'python3 tool.py --name {{x}}',
    "python3 -c 'import sys; print(sys.argv[2])' -- {{x}}",
    'ruby script.rb {{x}}',
    "awk -v name={{x}} '{print name}' file.txt",
    "awk '{print}' {{file}}",
    'sed -e s/a/b/ -- {{file}}',
    "xargs printf '[%s]\\n' {{greeting}}",
    'env FOO=bar make {{target}}',
    'nice -n 5 make {{target}}',
    'timeout 60 npm test -- {{pattern}}',
    'sudo -u builder make {{target}}',
    'find . -name {{pattern}}',
    'grep -c needle {{file}}',
    'pwsh -File build.ps1 {{x}}',
  ])('%s', async (command) => {
    const answer = await define(command);
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  });
});

test('a definition stored before the guard widened does not start: 409 WORKFLOW_COMMAND_REFUSED, no run', async () => {
  const folder = await scratchDir('guard');
  const projectId = (await owner.post('/projects', { name: 'guard', path: folder })).body.id;
  const db = new Database(path.join(daemon.dataDir, 'workspaced.db'));
  try {
    const steps = [{ name: 'old', kind: 'agent', agents: [], command: 'env sh -c {{x}}' }];
    db.prepare(
      'INSERT INTO workflow_definitions (name, steps, created_by, created_at) VALUES (?, ?, ?, ?)',
    ).run('legacy', JSON.stringify(steps), 'someone', Date.now());
  } finally {
    db.close();
  }
  const start = await owner.post('/workflows/legacy/start', {
    project_id: projectId,
    variables: { x: `touch ${path.join(folder, 'ran')}` },
  });
  expect([start.status, start.body.error?.code]).toEqual([409, 'WORKFLOW_COMMAND_REFUSED']);
  expect((await owner.get(`/workflow-runs/latest?workflow=legacy`)).status).toBe(404);
});
