/**
 * @module Starts the privileged agent: the snapshot store and pending transaction in its state
 * folder, the chosen backend (ufw or iptables) behind an argv-only command runner, and the Unix
 * socket. A
 * transaction left pending by a previous run is rolled back (or re-armed) before it listens.
 */
import { mkdir } from 'node:fs/promises';
import type { Server } from 'node:net';
import { defaultMaxMessageBytes, type Retention } from '../agent-protocol/protocol.js';
import { BlocklistSets } from './blocklist-sets.js';
import { createCommandRunner } from './command-runner.js';
import { dispatch } from './dispatch.js';
import { type AgentEvents, FirewallAgent } from './firewall-agent.js';
import { PendingFile } from './pending-transaction.js';
import { type ConfiguredBackend, type DockerPublishedPorts, selectBackend } from './select-backend.js';
import { SnapshotStore } from './snapshot-store.js';
import { listenOnSocket } from './socket-server.js';

interface AgentOptions {
  socketPath: string;
  /** Restore points and the pending transaction (e.g. /var/lib/firewarden-agent). */
  stateDir: string;
  gid?: number;
  maxMessageBytes?: number;
  /** argv prefix for every command (tests run the tools in a network namespace). */
  commandPrefix?: string[];
  events?: AgentEvents;
  /** `firewall.backend` (default `auto`). */
  backend?: ConfiguredBackend;
  /** `firewall.allow_write_on_manager_conflict` (default false). */
  allowWriteOnManagerConflict?: boolean;
  /** `firewall.docker_published_ports` (default `follow`). */
  dockerPublishedPorts?: DockerPublishedPorts;
  /** `restore_points.retain_*` (default 50 and 20), for a request that names no retention. */
  retention?: Retention;
}

export interface RunningAgent {
  agent: FirewallAgent;
  close(): Promise<void>;
}

export async function runAgent(options: AgentOptions): Promise<RunningAgent> {
  await mkdir(options.stateDir, { recursive: true, mode: 0o700 });
  const run = createCommandRunner(options.commandPrefix);
  const { backend, guard } = await selectBackend(
    run,
    options.backend ?? 'auto',
    options.allowWriteOnManagerConflict ?? false,
    options.dockerPublishedPorts,
    options.stateDir,
  );
  const agent = new FirewallAgent(
    backend,
    new BlocklistSets(run, options.stateDir, backend.setsMirror),
    new SnapshotStore(options.stateDir),
    new PendingFile(options.stateDir),
    options.events,
    guard,
    options.retention,
  );
  await agent.resume();
  const server: Server = await listenOnSocket({
    socketPath: options.socketPath,
    gid: options.gid,
    maxMessageBytes: options.maxMessageBytes ?? defaultMaxMessageBytes,
    handle: (line) => dispatch(agent, line),
  });
  return {
    agent,
    close: async () => {
      agent.stop();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
