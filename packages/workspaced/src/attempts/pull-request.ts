/**
 * @module `POST /tasks/{id}/pull-request`: commits the worktree's uncommitted work on the
 * attempt's branch (as landing does), pushes the branch to the project's remote (`origin`, else
 * the only one) and opens a pull request with `gh`, or a merge request with `glab` for a remote
 * on a GitLab host. The forge CLI must be on the daemon's PATH and signed in; otherwise 424
 * FORGE_UNAVAILABLE says which. The push keeps git's hardening but lets the remote's transport
 * work: the user's ssh in batch mode and the forge CLI as the only credential helper. Programs
 * run from argument arrays, never a shell.
 */
import { execFile } from 'node:child_process';
import type { TaskRow } from '../db/schema.js';
import { withGitErrors } from '../git/git-errors.js';
import { runInRepository } from '../git/project-repository.js';
import { GitFailure } from '../git/run-git.js';
import { type CommitIdentity, identityEnvironment } from '../git/write-operations.js';
import { ApiError } from '../http/api-error.js';
import { findOnPath } from '../terminals/agents/installed-agents.js';
import { adoptSnapshot, snapshotCommit } from './land.js';
import type { ReviewTarget } from './review-target.js';

const forgeTimeoutMs = 60_000;

interface Forge {
  name: 'github' | 'gitlab';
  cli: 'gh' | 'glab';
  create: (input: { branch: string; base: string; title: string; body: string }) => string[];
}

const github: Forge = {
  name: 'github',
  cli: 'gh',
  create: ({ branch, base, title, body }) => [
    'pr',
    'create',
    '--head',
    branch,
    '--base',
    base,
    '--title',
    title,
    '--body',
    body,
  ],
};

const gitlab: Forge = {
  name: 'gitlab',
  cli: 'glab',
  create: ({ branch, base, title, body }) => [
    'mr',
    'create',
    '--source-branch',
    branch,
    '--target-branch',
    base,
    '--title',
    title,
    '--description',
    body,
    '--yes',
  ],
};

const unavailable = (reason: string) =>
  new ApiError('FORGE_UNAVAILABLE', `cannot open a pull request: ${reason}`, { reason });

function run(
  program: string,
  args: string[],
  cwd: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      program,
      args,
      { cwd, timeout: forgeTimeoutMs, killSignal: 'SIGKILL', maxBuffer: 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout: String(stdout), stderr: String(stderr) });
      },
    );
  });
}

interface PullRequestInput {
  title: string | undefined;
  body: string | undefined;
  identity: CommitIdentity;
}

export async function openPullRequest(target: ReviewTarget, task: TaskRow, input: PullRequestInput) {
  const { attempt, repository } = target;
  const top = { ...repository, root: repository.workTree, prefix: '' };
  const remotes = (await runInRepository(top, ['remote'])).split('\n').filter((name) => name !== '');
  const remote = remotes.includes('origin') ? 'origin' : remotes.length === 1 ? remotes[0] : undefined;
  if (remote === undefined)
    throw unavailable(
      remotes.length === 0
        ? 'the repository has no remote'
        : 'the repository has several remotes and none is origin',
    );
  const url = (await runInRepository(top, ['remote', 'get-url', '--', remote])).trim();
  const forge = /gitlab/i.test(url) ? gitlab : github;
  const cli = await findOnPath(forge.cli);
  if (cli === null) throw unavailable(`${forge.cli} is not installed on the daemon's PATH`);
  if ((await run(cli, ['auth', 'status'], attempt.worktree_path)).code !== 0)
    throw unavailable(`${forge.cli} is not signed in (run: ${forge.cli} auth login)`);

  await withGitErrors(async () => {
    const env = await identityEnvironment(repository, input.identity);
    const { head, tip } = await snapshotCommit(top, target, env);
    await adoptSnapshot(top, target, head, tip);
  });
  const ref = `refs/heads/${attempt.branch}`;
  const transport = [
    '-c',
    'core.sshCommand=ssh -o BatchMode=yes',
    '-c',
    `credential.helper=!'${cli}' auth git-credential`,
  ];
  await runInRepository(top, [...transport, 'push', '--porcelain', '--', remote, `${ref}:${ref}`], {
    timeoutMs: 120_000,
  }).catch((error: unknown) => {
    const text = error instanceof GitFailure ? error.stderr : String(error);
    throw new ApiError(
      'PUSH_FAILED',
      `git push to ${remote} failed: ${text.split('\n').find((line) => line.trim() !== '') ?? ''}`,
    );
  });
  const created = await run(
    cli,
    forge.create({
      branch: attempt.branch,
      base: attempt.base_branch,
      title: input.title ?? task.title,
      body:
        input.body ??
        `${task.description}\n\nOpened by workspaced: task #${task.id}, attempt #${attempt.id} (${attempt.profile}).`.trim(),
    }),
    attempt.worktree_path,
  );
  const pullRequestUrl = created.stdout
    .split('\n')
    .map((line) => line.trim())
    .findLast((line) => /^https?:\/\/\S+$/.test(line));
  if (created.code !== 0 || pullRequestUrl === undefined)
    throw new ApiError(
      'FORGE_FAILED',
      `${forge.cli} could not open the request: ${(created.stderr || created.stdout).trim().split('\n')[0] ?? ''}`,
    );
  return { url: pullRequestUrl, forge: forge.name, remote };
}
