/**
 * @module Watches the agents in the live terminals (every 2 s, only while terminals exist):
 * publishes `agent.state` on the terminal's streams when an agent appears or its state changes,
 * and raises or clears the terminal's attention item (needs_approval / waiting_for_input:
 * `agent.blocked`; failed: `agent.failed`; anything else clears it).
 */
import type { Logger } from 'pino';
import type { AttentionCenter } from '../../realtime/attention-center.js';
import type { EventBus } from '../../realtime/event-bus.js';
import type { TerminalManager } from '../terminal-manager.js';
import { type DetectedAgent, detectAgent } from './agent-detection.js';
import { readProcessTable } from './process-tree.js';

const agentPollMs = 2_000;

const blocking = { needs_approval: 'needs approval', waiting_for_input: 'waits for input' } as const;

export function startAgentMonitor(deps: {
  terminals: TerminalManager;
  events: EventBus;
  attention: AttentionCenter;
  logger: Logger;
}): () => void {
  const last = new Map<number, string>();

  const update = (terminalId: number, projectId: number, agent: DetectedAgent | undefined) => {
    const key = agent ? `${agent.agent}:${agent.state}` : '';
    // A terminal without an agent starts as '' too: no event until an agent shows up.
    if ((last.get(terminalId) ?? '') === key) return;
    last.set(terminalId, key);
    const resource = `agent:terminal:${terminalId}`;
    const data = agent ?? { terminal_id: terminalId, project_id: projectId, agent: null, state: 'gone' };
    deps.events.publish(`project:${projectId}`, 'agent.state', { ...data });
    deps.events.publish(`terminal:${terminalId}`, 'agent.state', { ...data });
    if (agent && agent.state in blocking) {
      const what = blocking[agent.state as keyof typeof blocking];
      deps.attention.raise({
        kind: 'agent.blocked',
        projectId,
        resource,
        summary: `${agent.agent} in terminal ${terminalId} ${what}`,
      });
    } else if (agent?.state === 'failed') {
      deps.attention.raise({
        kind: 'agent.failed',
        projectId,
        resource,
        summary: `${agent.agent} in terminal ${terminalId} failed`,
      });
    } else deps.attention.clear(resource);
  };

  let running = false;
  const tick = async () => {
    const sessions = deps.terminals.list();
    for (const id of last.keys())
      if (!deps.terminals.get(id)) {
        last.delete(id);
        deps.attention.clear(`agent:terminal:${id}`);
      }
    if (sessions.length === 0 || running) return;
    running = true;
    try {
      const table = await readProcessTable();
      for (const session of sessions)
        update(session.info.id, session.info.projectId, detectAgent(session, table));
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => {
    tick().catch((error: unknown) => deps.logger.warn({ err: error }, 'agent detection failed'));
  }, agentPollMs);
  timer.unref();
  return () => clearInterval(timer);
}
