/**
 * @module Test support: the built `firewarden agent` bin run inside a network namespace, or a
 * sandbox (a namespace plus private mounts over host folders), as `firewarden-agent.service` runs
 * it on a host; waited on until its listening line.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { type Sandbox, sandboxCommand } from '../../backends/support/sandbox.js';
import { childEnvironment, cliPath } from '../../support/running-bin.js';

export interface AgentBin {
  child: ChildProcess;
  output: () => string;
  /** Sends the signal and resolves with the exit code (null when killed by the signal). */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** `where`: a network namespace's name, or a sandbox (its mounts apply to the agent too). */
export async function startAgentBin(
  where: string | Sandbox,
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<AgentBin> {
  const agent = [process.execPath, cliPath, 'agent', ...args];
  const [program, ...argv] =
    typeof where === 'string' ? ['ip', 'netns', 'exec', where, ...agent] : sandboxCommand(where, agent);
  const child = spawn(program!, argv, {
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
