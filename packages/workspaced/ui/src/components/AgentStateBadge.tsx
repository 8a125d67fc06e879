/** An agent's state as `GET /agents` reports it, in words, coloured by what it asks of the user. */
import { Badge, type Tone } from '@suite/web-ui/kit';

const labels: Record<string, string> = {
  working: 'working',
  waiting_for_input: 'waiting for input',
  needs_approval: 'needs approval',
  idle: 'idle',
  failed: 'failed',
};

const tones: Record<string, Tone> = {
  working: 'ok',
  waiting_for_input: 'warn',
  needs_approval: 'warn',
  failed: 'danger',
};

export function AgentStateBadge({ state }: { state: string }) {
  return <Badge tone={tones[state] ?? 'neutral'}>{labels[state] ?? state}</Badge>;
}
