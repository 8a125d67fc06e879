/**
 * @module `firewarden serve --sandbox`: the agent in a throwaway network namespace, so a newcomer
 * sees every screen work (and a safe apply really count down and roll back in a kernel) while
 * the host's firewall is never touched. As root the namespace is made with `ip netns add`;
 * otherwise in an unprivileged user namespace (`unshare --user --map-root-user --net`) where the
 * kernel allows it. The namespace gets its loopback up and a few demo rules; everything (agent,
 * namespace, temporary folder) goes when the server stops. Where it cannot run (no iptables, no
 * namespaces) it says why.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { callAgent } from '../agent-protocol/agent-client.js';

export class SandboxUnavailable extends Error {}

interface RunningSandbox {
  socketPath: string;
  /** How the namespace was made, for the operator. */
  description: string;
  stop(): void;
}

/** Shown on the rules screen: one of each action, a source range, a comment. */
const demoRules = [
  { direction: 'in', action: 'allow', protocol: 'tcp', destination_port: '22', comment: 'demo: ssh' },
  { direction: 'in', action: 'allow', protocol: 'tcp', destination_port: '80,443', comment: 'demo: web' },
  {
    direction: 'in',
    action: 'deny',
    protocol: 'tcp',
    destination_port: '3306',
    source: '198.51.100.0/24',
    comment: 'demo: no database from this range',
  },
  {
    direction: 'out',
    action: 'reject',
    protocol: 'udp',
    destination_port: '53',
    family: 'ipv6',
    comment: 'demo',
  },
];

const works = (argv: string[]) => spawnSync(argv[0]!, argv.slice(1), { stdio: 'ignore' }).status === 0;

/** argv prefix running a command inside a fresh namespace, and its removal. */
function makeNamespace(): { prefix: string[]; description: string; remove(): void } {
  if (!works(['iptables-save', '--version']) && !works(['/usr/sbin/iptables-save', '--version'])) {
    throw new SandboxUnavailable(
      'iptables is not installed (the sandbox runs the real iptables in a namespace)',
    );
  }
  if (process.getuid?.() === 0) {
    const name = `firewarden-sandbox-${randomBytes(4).toString('hex')}`;
    if (!works(['ip', 'netns', 'add', name])) {
      throw new SandboxUnavailable('`ip netns add` failed (iproute2 missing, or no network namespaces here)');
    }
    spawnSync('ip', ['-n', name, 'link', 'set', 'lo', 'up']);
    return {
      prefix: ['ip', 'netns', 'exec', name],
      description: `network namespace ${name} (ip netns)`,
      remove: () => void spawnSync('ip', ['netns', 'delete', name]),
    };
  }
  const userns = ['unshare', '--user', '--map-root-user', '--net'];
  if (!works([...userns, 'true'])) {
    throw new SandboxUnavailable(
      'not root, and this kernel refuses unprivileged user namespaces (kernel.unprivileged_userns_clone / user.max_user_namespaces): run it as root, or allow them',
    );
  }
  return {
    prefix: [...userns, 'sh', '-c', 'ip link set lo up 2>/dev/null; exec "$@"', 'sh'],
    description: 'an unprivileged user and network namespace (unshare)',
    remove: () => undefined,
  };
}

export async function startSandbox(cliPath: string): Promise<RunningSandbox> {
  const namespace = makeNamespace();
  const folder = mkdtempSync(path.join(tmpdir(), 'firewarden-sandbox-'));
  const socketPath = path.join(folder, 'agent.sock');
  const [program, ...args] = [
    ...namespace.prefix,
    process.execPath,
    cliPath,
    'agent',
    '--state-dir',
    path.join(folder, 'state'),
  ];
  const agent: ChildProcess = spawn(program!, args, {
    env: { ...process.env, FIREWARDEN_AGENT_SOCKET: socketPath, FIREWARDEN_FIREWALL_BACKEND: 'iptables' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const stop = () => {
    agent.kill('SIGTERM');
    namespace.remove();
    rmSync(folder, { recursive: true, force: true });
  };
  try {
    await waitForAgent(socketPath, agent);
    const applied = await callAgent(socketPath, 'apply', { rules: demoRules });
    if (!applied.ok) throw new SandboxUnavailable(`the demo rules were refused: ${applied.error.message}`);
  } catch (error) {
    stop();
    throw error instanceof SandboxUnavailable ? error : new SandboxUnavailable((error as Error).message);
  }
  return { socketPath, description: namespace.description, stop };
}

/** Polls the socket until the agent answers (bounded: 15 s), or reports its exit. */
async function waitForAgent(socketPath: string, agent: ChildProcess): Promise<void> {
  const end = Date.now() + 15_000;
  while (Date.now() < end) {
    if (agent.exitCode !== null) throw new SandboxUnavailable(`the sandbox agent exited (${agent.exitCode})`);
    const answer = await callAgent(socketPath, 'status').catch(() => null);
    if (answer?.ok) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new SandboxUnavailable('the sandbox agent did not answer within 15 s');
}
