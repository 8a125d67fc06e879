/**
 * @module Turns a profile and a prompt into the program a terminal runs: the command found on
 * the daemon's PATH, the arguments with the prompt placeholders filled, and the prompt file
 * (`file` and `stdin` profiles) written 0600 into `<data dir>/prompts/`, outside every
 * worktree, so the agent never commits it. The arguments shown to clients (`GET /terminals`)
 * carry `<prompt>` in place of the prompt.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ApiError } from '../http/api-error.js';
import { findOnPath } from '../terminals/agents/installed-agents.js';
import { type AgentProfile, promptFilePlaceholder, promptPlaceholder } from './agent-profiles.js';

const feeder = fileURLToPath(new URL('./stdin-feeder.js', import.meta.url));

export interface AgentLaunch {
  program: string;
  args: string[];
  /** `args` with the prompt replaced by `<prompt>`. */
  shownArgs: string[];
  env: Record<string, string>;
  /** Deleted once the agent exits (the stdin helper deletes it as soon as it has read it). */
  promptFile: string | undefined;
}

export async function prepareLaunch(
  dataDir: string,
  profile: AgentProfile,
  prompt: string,
  env: Record<string, string>,
): Promise<AgentLaunch> {
  const program = await findOnPath(profile.command);
  if (program === null)
    throw new ApiError('AGENT_UNAVAILABLE', `${profile.command} is not on the daemon's PATH`, {
      profile: profile.name,
    });
  const promptFile = profile.prompt_via === 'argument' ? undefined : await writePromptFile(dataDir, prompt);
  const fill = (value: string, shown: boolean) =>
    value
      .replaceAll(promptPlaceholder, shown ? '<prompt>' : prompt)
      .replaceAll(promptFilePlaceholder, promptFile ?? '');
  const args = profile.args.map((arg) => fill(arg, false));
  const shownArgs = profile.args.map((arg) => fill(arg, true));
  const merged = { ...profile.env, ...env };
  if (profile.prompt_via === 'stdin')
    return {
      program: process.execPath,
      args: [feeder, promptFile!, program, ...args],
      shownArgs: [program, ...shownArgs],
      env: merged,
      promptFile,
    };
  return { program, args, shownArgs, env: merged, promptFile };
}

async function writePromptFile(dataDir: string, prompt: string): Promise<string> {
  const folder = path.join(dataDir, 'prompts');
  await mkdir(folder, { recursive: true, mode: 0o700 });
  const file = path.join(folder, `${randomBytes(12).toString('hex')}.txt`);
  await writeFile(file, prompt, { mode: 0o600, flag: 'wx' });
  return file;
}

export async function removePromptFile(launch: AgentLaunch): Promise<void> {
  if (launch.promptFile) await rm(launch.promptFile, { force: true });
}
