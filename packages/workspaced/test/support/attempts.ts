/**
 * @module Helpers of the attempt, diff and land tests: a daemon with the stand-in agents on its
 * PATH and a project that is a real git repository on `main`, tasks, waiting for an attempt's
 * agent to finish (GET /attempts/{id} until it no longer runs), and the repository state a
 * refused landing must leave as it was.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Client } from './daemon.js';
import { git } from './git-repo.js';
import { type ProjectDaemon, type ProjectDaemonOptions, startProjectDaemon } from './project-daemon.js';
import { pathWith, standInAgents } from './stand-in-agents.js';

export async function startAttemptDaemon(
  name: string,
  options: ProjectDaemonOptions & { files?: Record<string, string> } = {},
): Promise<ProjectDaemon & { agentsDir: string }> {
  const agentsDir = await standInAgents();
  const started = await startProjectDaemon(name, {
    ...options,
    env: { ...options.env, PATH: pathWith(agentsDir) },
    prepare: async (dir) => {
      git(dir, 'init', '-q', '-b', 'main');
      for (const [file, content] of Object.entries(options.files ?? { 'README.md': 'hello\n' }))
        await writeFile(path.join(dir, file), content);
      git(dir, 'add', '-A');
      git(dir, 'commit', '-q', '-m', 'initial');
      await options.prepare?.(dir);
    },
  });
  return { ...started, agentsDir };
}

export async function newTask(client: Client, projectId: number, title: string, description = '') {
  const created = await client.post(`/projects/${projectId}/tasks`, { title, description });
  if (created.status !== 201) throw new Error(`task create failed: ${JSON.stringify(created.body)}`);
  return created.body as { id: number; title: string };
}

/** Polls GET /attempts/{id} until its state is no longer `running` (the agent exited). */
export async function attemptEnded(client: Client, attemptId: number, ms = 30_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const answer = await client.get(`/attempts/${attemptId}`);
    if (answer.status !== 200) throw new Error(`GET /attempts/${attemptId}: ${JSON.stringify(answer.body)}`);
    if (answer.body.state !== 'running') return answer.body;
    if (Date.now() > deadline) throw new Error(`attempt ${attemptId} still running after ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Starts an attempt, expects 201 and waits for the agent to exit. */
export async function runAttempt(client: Client, taskId: number, body: Record<string, unknown>) {
  const started = await client.post(`/tasks/${taskId}/attempts`, body);
  if (started.status !== 201)
    throw new Error(`start failed: ${started.status} ${JSON.stringify(started.body)}`);
  return attemptEnded(client, started.body.id as number);
}

/** Everything of the project's repository and the attempt's worktree that a refused landing must not change. */
export function landingState(projectDir: string, worktree: string) {
  return {
    main: git(projectDir, 'rev-parse', 'refs/heads/main'),
    branches: git(projectDir, 'for-each-ref', '--format=%(refname) %(objectname)', 'refs/heads'),
    projectStatus: git(projectDir, 'status', '--porcelain=v1', '--untracked-files=all'),
    projectHead: git(projectDir, 'rev-parse', 'HEAD'),
    worktreeStatus: git(worktree, 'status', '--porcelain=v1', '--untracked-files=all'),
    worktreeIndex: git(worktree, 'ls-files', '--stage'),
  };
}
