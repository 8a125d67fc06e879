/**
 * @module The start most bin tests share: the daemon on a fresh data dir, its owner signed in and
 * one project in a scratch folder; and the matching end (daemon stopped, data dir and the test
 * file's scratch folders removed).
 */
import {
  type Client,
  type RunningDaemon,
  removeDataDir,
  type StartOptions,
  setupOwner,
  startDaemon,
} from './daemon.js';
import { removeScratchDirs, scratchDir } from './scratch.js';

export interface ProjectDaemon {
  daemon: RunningDaemon;
  owner: Client;
  /** The project's folder, a scratch folder named after the project. */
  projectDir: string;
  projectId: number;
}

export interface ProjectDaemonOptions extends StartOptions {
  /** Fills the project's folder before the project is created. */
  prepare?: (projectDir: string) => Promise<void>;
}

/** Stops the daemon, if one started, and removes its data dir and the test file's scratch folders. */
export async function stopProjectDaemon(daemon: RunningDaemon | undefined): Promise<void> {
  await daemon?.stop();
  if (daemon) await removeDataDir(daemon);
  await removeScratchDirs();
}

/** Starts the daemon, sets up its owner and creates project `name` (stopping the daemon if a step fails). */
export async function startProjectDaemon(
  name: string,
  options: ProjectDaemonOptions = {},
): Promise<ProjectDaemon> {
  const daemon = await startDaemon(options);
  try {
    const owner = await setupOwner(daemon);
    const projectDir = await scratchDir(name);
    await options.prepare?.(projectDir);
    const created = await owner.post('/projects', { name, path: projectDir });
    if (created.status !== 201)
      throw new Error(`project create failed: ${created.status} ${JSON.stringify(created.body)}`);
    return { daemon, owner, projectDir, projectId: created.body.id as number };
  } catch (error) {
    await stopProjectDaemon(daemon);
    throw error;
  }
}
