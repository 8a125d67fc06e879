/**
 * @module Which coding agent a process is: by `comm` or the base name of its first two argv
 * entries (a Node or Python agent runs as `node /…/bin/claude` or `python -m aider`-style
 * launchers show up as `aider`).
 */
import path from 'node:path';
import type { ProcessEntry } from './process-tree.js';

export const knownAgents = [
  'claude',
  'codex',
  'gemini',
  'opencode',
  'aider',
  'cursor-agent',
  'amp',
  'qwen',
  'goose',
  'copilot',
  'hermes',
] as const;
export type AgentName = (typeof knownAgents)[number];

const byName = new Set<string>(knownAgents);

export function identifyAgent(entry: ProcessEntry): AgentName | undefined {
  const candidates = [entry.comm, ...entry.argv.slice(0, 2).map((arg) => path.basename(arg))];
  for (const candidate of candidates) {
    const name = candidate.toLowerCase().replace(/\.(js|mjs|cjs|py)$/, '');
    if (byName.has(name)) return name as AgentName;
  }
  return undefined;
}
