/**
 * @module `firewarden agent`: the privileged agent in the foreground (what
 * `firewarden-agent.service` runs as root), on the backend of `firewall.backend` (auto, ufw,
 * iptables) with `firewall.allow_write_on_manager_conflict`, pruning restore points to
 * `restore_points.retain_*` when a request names no retention (the server names its run-time
 * settings'). The socket is `agent.socket_path`
 * (`FIREWARDEN_AGENT_SOCKET`), mode 0660 for root and the group `--group` (default: the
 * `firewarden` group when it exists), restore points in `--state-dir`. One line on stdout once it
 * listens; SIGTERM / SIGINT close the socket and leave a pending transaction for the next start.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { AgentError } from '../agent/agent-error.js';
import { logRollback } from '../agent/rollback-log.js';
import { type RunningAgent, runAgent } from '../agent/run-agent.js';
import { retentionOf } from '../agent-protocol/protocol.js';
import { ConfigError } from '../config/config-error.js';
import type { CommandContext } from './command-context.js';
import { type Output, reportFailure } from './output.js';

export interface AgentCommandOptions {
  group?: string;
  stateDir?: string;
}

const defaultAgentStateDir = '/var/lib/firewarden-agent';
const defaultGroup = 'firewarden';

export async function agentCommand(
  context: CommandContext,
  options: AgentCommandOptions,
  output: Output,
): Promise<void> {
  const socketPath = context.config.agent.socket_path;
  const gid = socketGroup(options.group ?? process.env.FIREWARDEN_AGENT_GID);
  const stateDir = path.resolve(
    options.stateDir ?? process.env.FIREWARDEN_AGENT_STATE_DIR ?? defaultAgentStateDir,
  );
  let running: RunningAgent;
  try {
    running = await runAgent({
      socketPath,
      stateDir,
      gid,
      backend: context.config.firewall.backend,
      allowWriteOnManagerConflict: context.config.firewall.allow_write_on_manager_conflict,
      dockerPublishedPorts: context.config.firewall.docker_published_ports,
      retention: retentionOf(context.config.restore_points),
      events: { onRollback: logRollback },
    });
  } catch (error) {
    // No usable firewall tool: a setup problem, said in one line.
    if (error instanceof AgentError) return reportFailure(output, error.code, error.message, 2);
    throw error;
  }
  // The status names the backend `auto` chose; if reading it fails, the agent still serves.
  const backend = await running.agent.status().then(
    (status) => status.backend,
    () => `${context.config.firewall.backend} (status unreadable)`,
  );
  process.stdout.write(
    `firewarden agent listening on unix:${socketPath} (backend ${backend}, group ${gid ?? 'of the process'}, state ${stateDir})\n`,
  );
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => void running.close().then(() => process.exit(0)));
  }
}

/** A group name or number; without one, the `firewarden` group when it exists. */
function socketGroup(value: string | undefined): number | undefined {
  if (value !== undefined && /^\d{1,10}$/.test(value)) return Number(value);
  const gid = groupId(value ?? defaultGroup);
  if (gid === undefined && value !== undefined)
    throw new ConfigError(`--group: no group "${value}" in /etc/group`);
  return gid;
}

function groupId(name: string): number | undefined {
  let text = '';
  try {
    text = readFileSync('/etc/group', 'utf8');
  } catch {
    return undefined;
  }
  for (const line of text.split('\n')) {
    const [groupName, , id] = line.split(':');
    if (groupName === name && id !== undefined && /^\d+$/.test(id)) return Number(id);
  }
  return undefined;
}
