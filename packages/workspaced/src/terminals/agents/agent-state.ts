/**
 * @module An agent's state from what its terminal printed last: the phrase that appears latest
 * in the recent output (escape sequences removed, lower case) decides. Plain substring search,
 * no regular expression over terminal output.
 */
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

/** Removes CSI (`ESC [ … final`), OSC (`ESC ] … BEL/ST`) and other two-byte escapes. */
export function stripEscapes(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const char = text[i]!;
    if (char !== '\u001b') {
      if (char >= ' ' || char === '\n') out += char;
      i++;
      continue;
    }
    const kind = text[i + 1];
    i += 2;
    if (kind === '[') {
      while (i < text.length && !(text[i]! >= '@' && text[i]! <= '~')) i++;
      i++;
    } else if (kind === ']') {
      while (i < text.length && text[i] !== '\u0007' && !(text[i] === '\u001b' && text[i + 1] === '\\')) i++;
      i += text[i] === '\u0007' ? 1 : 2;
    }
  }
  return out;
}

export function stateFromOutput(recent: string): AgentState {
  const text = stripEscapes(recent).toLowerCase();
  let best: { at: number; state: AgentState } = { at: -1, state: 'idle' };
  for (const [phrase, state] of phrases) {
    const at = text.lastIndexOf(phrase);
    if (at > best.at) best = { at, state };
  }
  return best.state;
}
