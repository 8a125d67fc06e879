/**
 * @module Tests: agent state from terminal output and escape-sequence stripping, expected
 * values written by hand.
 */
import { expect, test } from 'vitest';
import { stateFromOutput } from '../src/terminals/agents/agent-state.js';
import { stripEscapes } from '../src/terminals/terminal-text.js';

test('escape sequences are removed: CSI, OSC with BEL or ST, lone controls', () => {
  expect(
    stripEscapes('\u001b[1;32mgreen\u001b[0m \u001b]0;title\u0007x \u001b]8;;http://a\u001b\\link\r\n'),
  ).toBe('green x link\n');
  expect(stripEscapes('cut \u001b[')).toBe('cut ');
});

test('the phrase printed last decides the state', () => {
  expect(stateFromOutput('')).toBe('idle');
  expect(stateFromOutput('Do you want to proceed?\n1. Yes')).toBe('needs_approval');
  expect(stateFromOutput('Do you want to proceed?\n✻ Thinking… (esc to interrupt)')).toBe('working');
  expect(stateFromOutput('working (esc to interrupt)\nError: rate limited')).toBe('failed');
  expect(stateFromOutput('\u001b[1mEnter your message\u001b[0m')).toBe('waiting_for_input');
});

test('long output is scanned in linear time (no regular expression)', () => {
  const noisy = '\u001b['.repeat(100_000);
  expect(stripEscapes(noisy).length).toBe(0);
  expect(stateFromOutput(`${'x'.repeat(200_000)}[y/n]`)).toBe('needs_approval');
});
