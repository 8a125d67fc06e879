/**
 * @module Coding agents running in the live terminals: the terminal's own process (an attempt or a
 * workflow step starts the agent itself, with no shell) or a process below it whose name is a
 * known agent (agent-identity.ts), else an agent's banner in the recent output; the state comes
 * from the recent output (agent-state.ts).
 */
import type { TerminalSession } from '../terminal-session.js';
import { stripEscapes } from '../terminal-text.js';
import { type AgentName, identifyAgent } from './agent-identity.js';
import { type AgentState, stateFromOutput } from './agent-state.js';
import { descendants, type ProcessEntry } from './process-tree.js';

/** About a screen of output: enough for the prompt or spinner an agent shows now. */
const recentBytes = 4 * 1024;

const banners: [string, AgentName][] = [
  ['claude code', 'claude'],
  ['welcome to claude', 'claude'],
  ['openai codex', 'codex'],
  ['gemini cli', 'gemini'],
  ['gemini-cli', 'gemini'],
  ['opencode', 'opencode'],
  ['aider v', 'aider'],
  ['cursor agent', 'cursor-agent'],
];

export interface DetectedAgent {
  terminal_id: number;
  project_id: number;
  agent: AgentName;
  detected_by: 'process' | 'output';
  pid: number | null;
  command: string[] | null;
  state: AgentState;
}

export function detectAgent(
  session: TerminalSession,
  table: readonly ProcessEntry[],
): DetectedAgent | undefined {
  const recent = session.recentOutput(recentBytes);
  const base = {
    terminal_id: session.info.id,
    project_id: session.info.projectId,
    state: stateFromOutput(recent),
  };
  const own = table.find((entry) => entry.pid === session.pid);
  for (const entry of own ? [own, ...descendants(table, session.pid)] : descendants(table, session.pid)) {
    const agent = identifyAgent(entry);
    if (agent)
      return { ...base, agent, detected_by: 'process', pid: entry.pid, command: entry.argv.slice(0, 8) };
  }
  const text = stripEscapes(recent).toLowerCase();
  for (const [banner, agent] of banners)
    if (text.includes(banner)) return { ...base, agent, detected_by: 'output', pid: null, command: null };
  return undefined;
}
