/**
 * @module Test support: a sandbox is a network namespace plus, per process, a private mount
 * namespace in which copies of host folders are bind-mounted over the real ones (/etc/ufw,
 * /etc/default, /etc/alternatives, /run). ufw, the iptables alternative and a firewalld pid file
 * can so be changed for the sandbox alone; the host's files and rules are never written.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, unlinkSync } from 'node:fs';
import { chmod } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from 'rolldown';
import { afterAll, beforeAll, expect } from 'vitest';
import {
  type CommandResult,
  createNamespace,
  exec,
  hostRules,
  type Namespace,
} from '../../engine/support/netns.js';

export interface Sandbox {
  ns: Namespace;
  folder: string;
  /** host copy -> path it hides inside the sandbox */
  binds: [string, string][];
  /** Runs argv inside the namespace with the binds in place. */
  exec(argv: string[], input?: string): Promise<CommandResult>;
  remove(): Promise<void>;
}

/** Binds each pair, then execs the rest: arguments only, nothing is interpolated into the script. */
const bindThenExec =
  'while [ "$1" != -- ]; do mount --bind "$1" "$2" || exit 97; shift 2; done; shift; exec "$@"';

/** argv that runs `argv` inside the sandbox: its namespace, a private mount namespace, its binds. */
export function sandboxCommand(sandbox: Pick<Sandbox, 'ns' | 'binds'>, argv: string[]): string[] {
  return [
    ...sandbox.ns.prefix,
    'unshare',
    '--mount',
    '--propagation',
    'private',
    'sh',
    '-c',
    bindThenExec,
    'sh',
    ...sandbox.binds.flat(),
    '--',
    ...argv,
  ];
}

export async function createSandbox(): Promise<Sandbox> {
  const ns = await createNamespace();
  const folder = mkdtempSync(path.join(tmpdir(), 'fw-backend-'));
  await chmod(folder, 0o755);
  const sandbox: Sandbox = {
    ns,
    folder,
    binds: [],
    exec: (argv, input) => exec(sandboxCommand(sandbox, argv), input),
    remove: async () => {
      await ns.remove();
      rmSync(folder, { recursive: true, force: true });
    },
  };
  return sandbox;
}

/** ufw's folders, copied from the host: the sandbox's ufw reads and writes these copies. */
export function withUfwCopies(sandbox: Sandbox): { ufwDir: string; read(file: string): string } {
  const ufwDir = path.join(sandbox.folder, 'etc-ufw');
  const defaults = path.join(sandbox.folder, 'etc-default');
  cpSync('/etc/ufw', ufwDir, { recursive: true });
  cpSync('/etc/default', defaults, { recursive: true });
  sandbox.binds.push([ufwDir, '/etc/ufw'], [defaults, '/etc/default']);
  return { ufwDir, read: (file) => readFileSync(path.join(ufwDir, file), 'utf8') };
}

export type IptablesVariant = 'nf_tables' | 'legacy';

/** A sandbox whose `iptables` is `variant` (legacy switched for it alone), as `iptables -V` says. */
export async function createVariantSandbox(variant: IptablesVariant): Promise<Sandbox> {
  const sandbox = await createSandbox();
  if (variant === 'legacy') withLegacyAlternatives(sandbox);
  expect((await sandbox.exec(['iptables', '-V'])).stdout).toContain(`(${variant})`);
  return sandbox;
}

/** Every line of an `iptables-save` that is not ours: our chains, their declarations and the jumps to them. */
export function notOurLines(save: string): string {
  return save
    .split('\n')
    .filter((line) => !line.includes('FIREWARDEN-'))
    .join('\n');
}

/** The `iptables` alternative switched to legacy, for the sandbox only (update-alternatives' links). */
function withLegacyAlternatives(sandbox: Sandbox): void {
  const alternatives = path.join(sandbox.folder, 'etc-alternatives');
  cpSync('/etc/alternatives', alternatives, { recursive: true, verbatimSymlinks: true });
  for (const base of ['iptables', 'ip6tables']) {
    for (const suffix of ['', '-save', '-restore']) {
      const link = path.join(alternatives, `${base}${suffix}`);
      unlinkSync(link);
      symlinkSync(`/usr/sbin/${base}-legacy${suffix}`, link);
    }
  }
  sandbox.binds.push([alternatives, '/etc/alternatives']);
}

/** An empty /run for the sandbox, returned so a test can put pid files in it. */
export function withPrivateRun(sandbox: Sandbox): string {
  const run = path.join(sandbox.folder, 'run');
  mkdirSync(run);
  sandbox.binds.push([run, '/run']);
  return run;
}

/** Bundles the test entry of the agent. */
async function bundleSandboxAgent(): Promise<string> {
  const folder = mkdtempSync(path.join(tmpdir(), 'fw-backend-bin-'));
  const file = path.join(folder, 'agent.mjs');
  await build({
    input: path.join(import.meta.dirname, 'agent-entry.ts'),
    platform: 'node',
    output: { file, format: 'esm' },
    logLevel: 'silent',
  });
  await chmod(folder, 0o755);
  return file;
}

/**
 * Registers a test file's hooks: the agent bundled once, and the host's rules checked unchanged
 * at the end. Returns the bundle's path (known once the hooks ran).
 */
export function bundledAgentForFile(): () => string {
  let bundle = '';
  let hostBefore = '';
  beforeAll(async () => {
    hostBefore = await hostRules();
    bundle = await bundleSandboxAgent();
  });
  afterAll(async () => {
    rmSync(path.dirname(bundle), { recursive: true, force: true });
    expect(await hostRules()).toBe(hostBefore);
  });
  return () => bundle;
}

export interface SandboxAgent {
  socketPath: string;
  stop(): Promise<void>;
}

export async function startSandboxAgent(
  sandbox: Sandbox,
  bundle: string,
  options: {
    backend: 'auto' | 'ufw' | 'iptables';
    allowWrite?: boolean;
    dockerPublishedPorts?: 'follow' | 'ignore';
  },
): Promise<SandboxAgent> {
  const socketPath = path.join(sandbox.folder, 'agent.sock');
  const [program, ...args] = sandboxCommand(sandbox, [process.execPath, bundle]);
  const child: ChildProcess = spawn(program!, args, {
    env: {
      PATH: process.env.PATH ?? '',
      FIREWARDEN_AGENT_SOCKET: socketPath,
      FIREWARDEN_AGENT_STATE_DIR: path.join(sandbox.folder, 'state'),
      FIREWARDEN_FIREWALL_BACKEND: options.backend,
      ALLOW_WRITE_ON_MANAGER_CONFLICT: String(options.allowWrite ?? false),
      FIREWARDEN_DOCKER_PUBLISHED_PORTS: options.dockerPublishedPorts ?? 'follow',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk) => {
    stderr += chunk;
  });
  await new Promise<void>((resolve, reject) => {
    child.stderr!.on('data', () => (stderr.includes('agent listening') ? resolve() : undefined));
    child.once('exit', (code) => reject(new Error(`agent exited (${code}): ${stderr}`)));
  });
  return {
    socketPath,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  };
}

/** iptables-save of both families inside the sandbox (its variant), timestamp comments dropped. */
export async function sandboxSave(sandbox: Sandbox): Promise<string> {
  const [v4, v6] = await Promise.all([sandbox.exec(['iptables-save']), sandbox.exec(['ip6tables-save'])]);
  const strip = (text: string) =>
    text
      .split('\n')
      .filter((line) => !line.startsWith('#'))
      .join('\n');
  return `${strip(v4.stdout)}---\n${strip(v6.stdout)}`;
}

/** Polls until `check` holds; the bound is generous, this asserts an outcome, never a duration. */
export async function eventually(
  check: () => Promise<boolean>,
  what: string,
  limitMs = 30_000,
): Promise<void> {
  const end = Date.now() + limitMs;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`never happened: ${what}`);
}
