/**
 * @module Picks the agent's backend once, at start: `firewall.backend` `ufw` or `iptables` as
 * configured, `auto` -> ufw when it is installed and active (switched on and its chains loaded),
 * else iptables. The iptables variant (nf_tables or legacy) is detected either way, since ufw
 * drives the same tools. Also builds the view of the other managers: the conflict check before
 * every write and the foreign rules `read_rules` lists.
 */

import { ufwChainsLoaded, ufwSwitchedOn } from '../firewall/ufw-files.js';
import { AgentError } from './agent-error.js';
import { CommandError, type CommandRunner } from './command-runner.js';
import type { ConflictGuard } from './firewall-agent.js';
import type { FirewallBackend } from './firewall-backend.js';
import { readForeignRules } from './foreign-rules.js';
import { IptablesBackend } from './iptables-backend.js';
import { detectIptablesTools } from './iptables-variant.js';
import { detectManagers } from './manager-conflicts.js';
import { UfwBackend } from './ufw-backend.js';

export type ConfiguredBackend = 'auto' | 'ufw' | 'iptables';
/** `firewall.docker_published_ports`: `follow` (where Docker's chains exist) or `ignore`. */
export type DockerPublishedPorts = 'follow' | 'ignore';

interface BackendChoice {
  backend: FirewallBackend;
  guard: ConflictGuard;
}

export async function selectBackend(
  run: CommandRunner,
  configured: ConfiguredBackend,
  allowWriteOnManagerConflict: boolean,
  dockerPublishedPorts: DockerPublishedPorts = 'follow',
  /** The agent's state folder (the ufw backend keeps the blocklists' copies there). */
  stateDir: string,
): Promise<BackendChoice> {
  const tools = await detectIptablesTools(run).catch((error: unknown) => {
    throw notFound(error, 'iptables');
  });
  const docker = { followDocker: dockerPublishedPorts === 'follow' };
  const iptables = new IptablesBackend(run, tools, docker);
  const ufwInstalled = await run(['ufw', 'version']).then(
    (result) => result.code === 0,
    () => false,
  );
  if (configured === 'ufw' && !ufwInstalled) {
    throw new AgentError('FW_BACKEND_NOT_FOUND', 'firewall.backend is ufw but ufw is not installed');
  }
  const ufwActive =
    configured === 'auto' &&
    ufwInstalled &&
    (await ufwSwitchedOn()) &&
    ufwChainsLoaded(await iptables.save('ipv4'));
  const backend =
    configured === 'ufw' || ufwActive ? new UfwBackend(run, iptables, docker, stateDir) : iptables;
  return {
    backend,
    guard: {
      allowWrite: allowWriteOnManagerConflict,
      detect: async (saved) =>
        detectManagers(run, { backend: backend.kind, saved, ufwSwitchedOn: await ufwSwitchedOn() }),
      foreign: (saved) => readForeignRules(run, saved, backend.kind),
    },
  };
}

function notFound(error: unknown, tool: string): unknown {
  return error instanceof CommandError && error.reason === 'not_found'
    ? new AgentError('FW_BACKEND_NOT_FOUND', `${tool} is not installed`)
    : error;
}
