/**
 * @module Splits one `iptables-save` rule line into tokens the way iptables-restore does: spaces
 * separate, double quotes group (with `\"` as an escaped quote). A single left-to-right pass.
 */

const maxRuleLineLength = 4_096;

export function tokenizeRuleLine(line: string): string[] | null {
  if (line.length > maxRuleLineLength) return null;
  const tokens: string[] = [];
  let current = '';
  let inToken = false;
  let quoted = false;
  for (let i = 0; i < line.length; i += 1) {
    const c = line[i]!;
    if (quoted) {
      if (c === '\\' && line[i + 1] === '"') {
        current += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else current += c;
    } else if (c === '"') {
      quoted = true;
      inToken = true;
    } else if (c === ' ' || c === '\t') {
      if (inToken) tokens.push(current);
      current = '';
      inToken = false;
    } else {
      current += c;
      inToken = true;
    }
  }
  if (quoted) return null;
  if (inToken) tokens.push(current);
  return tokens;
}
