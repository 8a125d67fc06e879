/**
 * @module Test support: the built `firewarden agent` bin run inside a network namespace (as
 * `firewarden-agent.service` runs it on a host), waited on until its listening line.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { childEnvironment, cliPath } from '../../support/running-bin.js';

export interface AgentBin {
  child: ChildProcess;
  output: () => string;
  /** Sends the signal and resolves with the exit code (null when killed by the signal). */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export async function startAgentBin(
  namespace: string,
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<AgentBin> {
  const child = spawn('ip', ['netns', 'exec', namespace, process.execPath, cliPath, 'agent', ...args], {
    env: childEnvironment(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    const collect = (chunk: Buffer) => {
      output += chunk;
      if (output.includes('firewarden agent listening on unix:')) resolve();
    };
    child.stdout!.on('data', collect);
    child.stderr!.on('data', collect);
    void exited.then((code) => reject(new Error(`agent exited (${code}): ${output}`)));
  });
  return {
    child,
    output: () => output,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}
