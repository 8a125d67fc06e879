/**
 * @module Test support: throwaway network namespaces for running the real iptables (and the
 * agent's commands) without touching the host's rules, plus a snapshot of the host's rules so a
 * suite can prove it left them unchanged. Needs root and iproute2; otherwise the suite skips with
 * the reason printed, except under CI=true where it fails.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs argv (no shell), feeding `input` on stdin; never throws on a non-zero exit. */
export function exec(argv: string[], input?: string): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      argv[0]!,
      argv.slice(1),
      { maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== 'number') reject(error);
        else resolve({ code: error ? Number(error.code) : 0, stdout, stderr });
      },
    );
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(input ?? '');
  });
}

async function namespacesUsable(): Promise<string | null> {
  if (process.getuid?.() !== 0) return 'network namespace tests need root';
  try {
    await run('ip', ['netns', 'list']);
    await run('iptables-save', ['--version']);
  } catch (error) {
    return `iproute2 or iptables missing: ${(error as Error).message}`;
  }
  return null;
}

export const namespaceSkipReason = await namespacesUsable();
if (namespaceSkipReason !== null) {
  if (process.env.CI === 'true') throw new Error(`CI=true but ${namespaceSkipReason}`);
  console.warn(`skipping namespace tests: ${namespaceSkipReason}`);
}

export interface Namespace {
  name: string;
  /** argv prefix that runs a command inside the namespace. */
  prefix: string[];
  exec(argv: string[], input?: string): Promise<CommandResult>;
  remove(): Promise<void>;
}

export async function createNamespace(): Promise<Namespace> {
  const name = `fwtest-${randomBytes(4).toString('hex')}`;
  await run('ip', ['netns', 'add', name]);
  const prefix = ['ip', 'netns', 'exec', name];
  await run('ip', ['netns', 'exec', name, 'ip', 'link', 'set', 'lo', 'up']);
  return {
    name,
    prefix,
    exec: (argv, input) => exec([...prefix, ...argv], input),
    remove: async () => {
      await run('ip', ['netns', 'delete', name]).catch(() => undefined);
    },
  };
}

/**
 * A line added by hand at the top of our input chain that the rule model cannot express (an
 * ESTABLISHED accept, the usual one); returned as `iptables -S` prints it.
 */
export async function addUnmanagedLine(ns: Namespace): Promise<string> {
  await ns.exec([
    'iptables',
    '-I',
    'FIREWARDEN-INPUT',
    '1',
    '-m',
    'conntrack',
    '--ctstate',
    'ESTABLISHED',
    '-j',
    'ACCEPT',
  ]);
  return '-A FIREWARDEN-INPUT -m conntrack --ctstate ESTABLISHED -j ACCEPT';
}

/** The host's v4 and v6 rules without the timestamp comments, to compare before and after. */
export async function hostRules(): Promise<string> {
  const outputs = await Promise.all([exec(['iptables-save']), exec(['ip6tables-save'])]);
  return outputs
    .map((o) =>
      o.stdout
        .split('\n')
        .filter((line) => !line.startsWith('#'))
        .join('\n'),
    )
    .join('\n---\n');
}
