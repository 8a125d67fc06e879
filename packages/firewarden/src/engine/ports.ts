/**
 * @module Port specifications of the rule model: `any`, a port, a range (`1000-2000` or
 * `1000:2000`) or a comma list of up to 15 of those (the limit of iptables' multiport match).
 * Parsed character by character, never with a backtracking pattern.
 */

interface PortRange {
  from: number;
  to: number;
}

/** `null` means any port. */
export type PortSpec = PortRange[] | null;

const maxPortItems = 15;
const maxPortTextLength = 200;

type PortParse = { ok: true; ports: PortSpec } | { ok: false; message: string };

export function parsePorts(text: string): PortParse {
  if (text === 'any' || text === '') return { ok: true, ports: null };
  if (text.length > maxPortTextLength) return { ok: false, message: 'is too long' };
  const items = text.split(',');
  if (items.length > maxPortItems)
    return { ok: false, message: `lists more than ${maxPortItems} ports or ranges` };
  const ranges: PortRange[] = [];
  for (const item of items) {
    const separator = item.includes('-') ? '-' : ':';
    const bounds = item.split(separator);
    if (bounds.length > 2) return { ok: false, message: `"${item}" is not a port or a range` };
    const numbers = bounds.map(parsePort);
    if (numbers.some((n) => n === null)) {
      return { ok: false, message: `"${item}" is not a port (1-65535) or a range of them` };
    }
    const [from, to = from] = numbers as number[];
    if (from! > to) return { ok: false, message: `the range "${item}" starts after it ends` };
    ranges.push({ from: from!, to });
  }
  return { ok: true, ports: ranges };
}

function parsePort(text: string): number | null {
  if (text.length === 0 || text.length > 5) return null;
  for (const c of text) if (c < '0' || c > '9') return null;
  const port = Number(text);
  return port >= 1 && port <= 65_535 ? port : null;
}

/** Canonical text: `22`, `80,443`, `1000-2000`; `any` when unrestricted. */
export function formatPorts(ports: PortSpec, rangeSeparator: '-' | ':' = '-'): string {
  if (ports === null) return 'any';
  return ports.map((r) => (r.from === r.to ? String(r.from) : `${r.from}${rangeSeparator}${r.to}`)).join(',');
}

export function portsContain(outer: PortSpec, inner: PortSpec): boolean {
  if (outer === null) return true;
  if (inner === null) return false;
  return inner.every((range) => coveredBy(range, outer));
}

export function portsIntersect(a: PortSpec, b: PortSpec): boolean {
  if (a === null || b === null) return true;
  return a.some((x) => b.some((y) => x.from <= y.to && y.from <= x.to));
}

export function portsInclude(ports: PortSpec, port: number): boolean {
  return ports === null || ports.some((r) => r.from <= port && port <= r.to);
}

/** Whether the union of `ranges` covers every port of `range`. */
function coveredBy(range: PortRange, ranges: PortRange[]): boolean {
  const sorted = [...ranges].sort((a, b) => a.from - b.from);
  let next = range.from;
  for (const r of sorted) {
    if (r.from > next) break;
    if (r.to >= next) next = r.to + 1;
    if (next > range.to) return true;
  }
  return next > range.to;
}
