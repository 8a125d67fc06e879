/**
 * @module An agent's state from what its terminal printed last: the phrase that appears latest
 * in the recent output (escape sequences removed, lower case) decides. Plain substring search,
 * no regular expression over terminal output.
 */
import { stripEscapes } from '../terminal-text.js';

export type AgentState = 'working' | 'waiting_for_input' | 'needs_approval' | 'idle' | 'failed';

const phrases: [string, AgentState][] = [
  ['do you want to proceed', 'needs_approval'],
  ['do you want to make this edit', 'needs_approval'],
  ['allow?', 'needs_approval'],
  ['[y/n]', 'needs_approval'],
  ['(y/n)', 'needs_approval'],
  ['approve?', 'needs_approval'],
  ['enter your message', 'waiting_for_input'],
  ['? for shortcuts', 'waiting_for_input'],
  ['waiting for input', 'waiting_for_input'],
  ['esc to interrupt', 'working'],
  ['ctrl+c to interrupt', 'working'],
  ['thinking', 'working'],
  ['error:', 'failed'],
  ['fatal:', 'failed'],
];

export function stateFromOutput(recent: string): AgentState {
  const text = stripEscapes(recent).toLowerCase();
  let best: { at: number; state: AgentState } = { at: -1, state: 'idle' };
  for (const [phrase, state] of phrases) {
    const at = text.lastIndexOf(phrase);
    if (at > best.at) best = { at, state };
  }
  return best.state;
}
