/**
 * What the dashboard shows when no agent answers (`FW_AGENT_UNAVAILABLE`): what that means, the
 * likely cause from the API's `details.reason`, and how to start the agent; the rest of the
 * server (users, audit, settings, notifications) keeps working.
 */
import { Button, Card } from '@suite/web-ui/kit';
import { RefreshCw, ServerCrash } from 'lucide-react';

const causes: Record<string, string> = {
  socket_missing: 'There is no agent socket at the configured path: the agent has not been started.',
  connection_refused: 'The agent socket exists but nothing answers on it: the agent stopped or crashed.',
  permission_denied:
    "The agent refuses this server: the agent's FIREWARDEN_AGENT_GID is not the group this server runs as.",
  timeout: 'The agent did not answer in time: it may be stuck on a slow iptables or ufw command.',
};

export function AgentDown({ reason, onRetry }: { reason: string; onRetry: () => void }) {
  return (
    <Card
      className="agent-down wide"
      title="The firewall agent is not running"
      icon={<ServerCrash size={18} />}
      labelledBy="card-agent-down"
    >
      <p>
        firewarden changes the firewall only through its agent, a small process running as root. Until it
        answers, the firewall cannot be read or changed here; sign-in, users, the audit log, settings and
        notifications keep working.
      </p>
      <p data-testid="agent-reason">
        <strong>Why:</strong> {causes[reason] ?? `the agent is unavailable (${reason}).`}
      </p>
      <p>
        <strong>Start it</strong> on the host, with the same config as this server:
      </p>
      <pre>sudo systemctl start firewarden-agent{'\n'}sudo systemctl status firewarden-agent</pre>
      <p className="meta">Without systemd: sudo firewarden agent --config /etc/firewarden/config.yaml</p>
      <Button icon={<RefreshCw size={16} />} onClick={onRetry}>
        Check again
      </Button>
    </Card>
  );
}
