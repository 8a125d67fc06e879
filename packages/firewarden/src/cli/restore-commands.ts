/**
 * @module `firewarden restore create [--name]`, `restore list`, `restore apply <id>`: restore
 * points straight through the agent's socket (the same operations the API uses), for an operator
 * on the host when the web server is down. Needs access to the socket (root or its group).
 * Commands that create a point name the config file's retention (`restore_points.retain_*`).
 */
import { AgentUnavailable, callAgent } from '../agent-protocol/agent-client.js';
import { type Operation, type Retention, retentionOf } from '../agent-protocol/protocol.js';
import type { RestorePointSummary } from '../transactions/transaction-store.js';
import type { CommandContext } from './command-context.js';
import { type Output, printJson, printLines, reportFailure, table } from './output.js';

/** The agent's answer, or null after reporting the failure (exit 1); shared by the commands that ask the agent. */
export async function askAgent<T>(
  context: CommandContext,
  output: Output,
  op: Operation,
  params = {},
): Promise<T | null> {
  const socketPath = context.config.agent.socket_path;
  try {
    const answer = await callAgent(socketPath, op, params);
    if (answer.ok) return answer.result as T;
    reportFailure(output, answer.error.code, answer.error.message);
  } catch (error) {
    if (!(error instanceof AgentUnavailable)) throw error;
    reportFailure(
      output,
      'FW_AGENT_UNAVAILABLE',
      `the firewarden agent does not answer at ${socketPath} (${error.reason}); start firewarden-agent`,
    );
  }
  return null;
}

/** The retention a command that creates a restore point sends: the config file's, not the server's. */
export function fileRetention(context: CommandContext): { retention: Retention } {
  return { retention: retentionOf(context.config.restore_points) };
}

export async function restoreCreateCommand(context: CommandContext, output: Output, name?: string) {
  const point = await askAgent<RestorePointSummary>(context, output, 'snapshot', {
    kind: 'manual',
    note: name,
    ...fileRetention(context),
  });
  if (!point) return;
  if (output.json) printJson({ ok: true, snapshot: point });
  else printLines([`restore point ${point.id} created (sha256 ${point.hash})`]);
}

export async function restoreListCommand(context: CommandContext, output: Output) {
  const answer = await askAgent<{ snapshots: RestorePointSummary[] }>(context, output, 'list_snapshots');
  if (!answer) return;
  if (output.json) return printJson({ ok: true, snapshots: answer.snapshots });
  if (answer.snapshots.length === 0) return printLines(['no restore points']);
  printLines(
    table(
      ['ID', 'KIND', 'CREATED', 'SHA256', 'NAME'],
      answer.snapshots.map((point) => [
        point.id,
        point.kind,
        point.created_at,
        point.hash.slice(0, 12),
        point.note ?? '',
      ]),
    ),
  );
}

export async function restoreApplyCommand(context: CommandContext, output: Output, id: string) {
  const answer = await askAgent<{ restored: string; hash: string; previous_snapshot_id: string }>(
    context,
    output,
    'restore',
    { snapshot_id: id, ...fileRetention(context) },
  );
  if (!answer) return;
  if (output.json) printJson({ ok: true, ...answer });
  else
    printLines([`restored ${answer.restored}; the state before is kept as ${answer.previous_snapshot_id}`]);
}
