/**
 * What the dashboard shows when no agent answers (`FW_AGENT_UNAVAILABLE`): what that means, the
 * likely cause from the API's `details.reason` (for `agent_error`, the agent's own code and
 * message too) and what to run on the host about it; the rest of the server (users, audit,
 * settings, notifications) keeps working.
 */
import { Button, Card } from '@suite/web-ui/kit';
import { RefreshCw, ServerCrash } from 'lucide-react';
import type { AgentUnavailable } from '../../../src/agent-protocol/agent-client.js';
import type { ApiFailure } from '../api';

/** Why the agent is unavailable: the API's reason, and the agent's refusal for `agent_error`. */
export interface AgentOutage {
  reason: string;
  refusal?: { code: string; message: string };
}

export function agentOutage(failure: ApiFailure): AgentOutage {
  const reason = String(failure.details.reason ?? 'unknown');
  if (reason !== 'agent_error') return { reason };
  return { reason, refusal: { code: String(failure.details.agent_error), message: failure.message } };
}

/** Every reason the server sends: the client's, and the agent refusing with a code the API lacks. */
type Reason = AgentUnavailable['reason'] | 'agent_error';

interface Cause {
  title: string;
  why: string;
  /** What to do on the host, said before the commands for it. */
  todo: string;
  commands: string[];
  /** The same without systemd. */
  manual?: string;
}

const status = 'sudo systemctl status firewarden-agent';
const log = 'sudo journalctl -u firewarden-agent -e';
const restart = 'sudo systemctl restart firewarden-agent';
const socketFile = 'ls -l /run/firewarden/agent.sock';
const startByHand = 'Without systemd: sudo firewarden agent --config /etc/firewarden/config.yaml';
const notRunning = 'The firewall agent is not running';

const causes: Record<Reason, Cause> = {
  socket_missing: {
    title: notRunning,
    why: 'There is no agent socket at the configured path (agent.socket_path): the agent has not been started, or it listens at another path.',
    todo: 'Start it on the host, with the same config as this server:',
    commands: ['sudo systemctl start firewarden-agent', status],
    manual: startByHand,
  },
  connection_refused: {
    title: notRunning,
    why: 'The agent socket exists but nothing answers on it: the agent stopped or crashed and left its socket behind.',
    todo: 'Read why it stopped in its log, then start it again:',
    commands: [log, restart],
    manual: startByHand,
  },
  permission_denied: {
    title: 'The firewall agent does not let this server in',
    why: "The agent socket refuses this server: the socket belongs to the agent's group (its --group or FIREWARDEN_AGENT_GID), and this server does not run in that group.",
    todo: "Compare the socket's group with the server's user (firewarden by default), then restart the agent with the server's group:",
    commands: [socketFile, 'id firewarden', restart],
  },
  timeout: {
    title: 'The firewall agent is not answering',
    why: 'The agent did not answer in time: it may be stuck on a slow iptables or ufw command, or waiting for the xtables lock another tool holds.',
    todo: 'See what it is doing in its status and log; restart it if it stays stuck:',
    commands: [status, log, restart],
  },
  bad_answer: {
    title: 'The firewall agent gave no usable answer',
    why: "Something on the agent socket closed the connection or answered with what is not an agent's answer: the agent crashed or restarted during the request, or another program listens at the configured path (agent.socket_path).",
    todo: 'Check that the agent is the process listening on the socket, and read its log:',
    commands: ['sudo ss -xlp | grep agent.sock', status, log],
  },
  error: {
    title: 'The firewall agent cannot be reached',
    why: 'Connecting to the agent socket failed with an unexpected system error: a part of the configured path (agent.socket_path) is not a folder, or the connection was reset.',
    todo: "Check what is at the socket's path (/run/firewarden/agent.sock unless agent.socket_path says otherwise) and read the agent's log:",
    commands: [socketFile, status, log],
  },
  agent_error: {
    title: 'The firewall agent refused to read the firewall',
    why: 'The agent answered with an error this server has no code for: a firewall command failed on the host, or the agent runs another firewarden version than this server.',
    todo: "Read the agent's log; after an upgrade, restart both so that they run the same version:",
    commands: [log, 'sudo systemctl restart firewarden-agent firewarden'],
  },
};

/** A reason this server does not send (a proxy's, a newer server's): said as it came. */
function unknownCause(reason: string): Cause {
  return {
    title: 'The firewall agent is not available',
    why: `The agent is unavailable (${reason}).`,
    todo: 'Check it on the host and read its log:',
    commands: [status, log],
  };
}

export function AgentDown({ outage, onRetry }: { outage: AgentOutage; onRetry: () => void }) {
  const cause = Object.hasOwn(causes, outage.reason)
    ? causes[outage.reason as Reason]
    : unknownCause(outage.reason);
  return (
    <Card
      className="agent-down wide"
      title={cause.title}
      icon={<ServerCrash size={18} />}
      labelledBy="card-agent-down"
    >
      <p>
        firewarden changes the firewall only through its agent, a small process running as root. Until it
        answers, the firewall cannot be read or changed here; sign-in, users, the audit log, settings and
        notifications keep working.
      </p>
      <p data-testid="agent-reason">
        <strong>Why:</strong> {cause.why}
      </p>
      {outage.refusal && (
        <p data-testid="agent-refusal">
          <strong>Its answer:</strong> <code>{outage.refusal.code}</code> {outage.refusal.message}
        </p>
      )}
      <p>
        <strong>What to do:</strong> {cause.todo}
      </p>
      <pre>{cause.commands.join('\n')}</pre>
      {cause.manual && <p className="meta">{cause.manual}</p>}
      <Button icon={<RefreshCw size={16} />} onClick={onRetry}>
        Check again
      </Button>
    </Card>
  );
}
