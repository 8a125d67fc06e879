/**
 * @module Test support: the agent as its own process inside a network namespace (bundled from
 * src with rolldown, since Node 20 cannot run TypeScript), and a client that sends raw lines over
 * its Unix socket and reads the answers.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { chmod } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from 'rolldown';

const source = path.resolve(import.meta.dirname, '../../../src/agent/agent-main.ts');

/** Bundles the agent once per test file into a temporary folder. */
export async function bundleAgent(): Promise<string> {
  const folder = mkdtempSync(path.join(tmpdir(), 'fw-agent-bin-'));
  const file = path.join(folder, 'agent.mjs');
  await build({ input: source, platform: 'node', output: { file, format: 'esm' }, logLevel: 'silent' });
  await chmod(folder, 0o755);
  return file;
}

export interface AgentProcess {
  child: ChildProcess;
  socketPath: string;
  stateDir: string;
  stderr: () => string;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

export async function startAgent(
  bundle: string,
  namespace: string,
  folder: string,
  extraEnv: Record<string, string> = {},
): Promise<AgentProcess> {
  const socketPath = path.join(folder, 'agent.sock');
  const stateDir = path.join(folder, 'state');
  const child = spawn('ip', ['netns', 'exec', namespace, process.execPath, bundle], {
    env: {
      PATH: process.env.PATH ?? '',
      FIREWARDEN_AGENT_SOCKET: socketPath,
      FIREWARDEN_AGENT_STATE_DIR: stateDir,
      ...extraEnv,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk) => {
    stderr += chunk;
  });
  await new Promise<void>((resolve, reject) => {
    const check = () => (stderr.includes('agent listening') ? resolve() : undefined);
    child.stderr!.on('data', check);
    child.once('exit', (code) => reject(new Error(`agent exited (${code}): ${stderr}`)));
  });
  return {
    child,
    socketPath,
    stateDir,
    stderr: () => stderr,
    stop: (signal = 'SIGTERM') =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill(signal);
      }),
  };
}

/** An answer as the tests read it: JSON whose shape each test asserts. */
// biome-ignore lint/suspicious/noExplicitAny: parsed JSON, checked by the assertions that read it
export type Answer = Record<string, any>;

/** Sends raw bytes and resolves with every answer line received until the agent closes or `count` arrived. */
export function exchange(socketPath: string, payload: string | Buffer, count = 1): Promise<Answer[]> {
  return new Promise((resolve, reject) => {
    const socket = connect(socketPath);
    let received = '';
    const lines = () => received.split('\n').filter((line) => line !== '');
    const finish = () => {
      socket.destroy();
      resolve(lines().map((line) => JSON.parse(line)));
    };
    socket.on('data', (chunk) => {
      received += chunk;
      if (lines().length >= count && received.endsWith('\n')) finish();
    });
    socket.on('end', finish);
    socket.on('error', (error: NodeJS.ErrnoException) =>
      error.code === 'EPIPE' || error.code === 'ECONNRESET' ? finish() : reject(error),
    );
    socket.write(payload);
  });
}

/** One request, one answer. */
export async function call(socketPath: string, op: string, params?: object): Promise<Answer> {
  const [answer] = await exchange(socketPath, `${JSON.stringify({ id: 1, op, params })}\n`);
  return answer!;
}
