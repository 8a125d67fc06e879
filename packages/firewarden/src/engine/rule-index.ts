/**
 * @module An index of a rule list by what each rule matches, so the analysis compares a rule only
 * with the rules that could cover it or share a packet with it, not with every earlier rule. Each
 * dimension (destination and source port, source and destination address, interface, protocol,
 * family) answers, for a rule, a superset of the rules related to it in that dimension; the
 * analysis scans the smallest of those sets and decides each candidate with the exact relation of
 * match.ts, so its findings are those of comparing every pair.
 */
import { enclosingNetwork, type Family, lastAddress, type Network } from './addresses.js';
import type { RuleMatch } from './match.js';
import type { PortSpec } from './ports.js';

/** Rule indexes `indexes[from..to)`; `ordered` when ascending (a search for the first may stop early). */
interface Chunk {
  indexes: readonly number[];
  from: number;
  to: number;
  ordered: boolean;
}

/** Null: the dimension does not narrow the search (the rule is unrestricted in it). */
type Candidates = Chunk[] | null;

interface Dimension {
  /** Rules that may match every packet `rule` matches in this dimension. */
  coverers(rule: RuleMatch): Chunk[];
  /** Rules that may share a packet with `rule` in this dimension. */
  meeting(rule: RuleMatch): Candidates;
}

const whole = (indexes: readonly number[], ordered = true): Chunk => ({
  indexes,
  from: 0,
  to: indexes.length,
  ordered,
});

const chunkSize = (chunks: readonly Chunk[]): number =>
  chunks.reduce((total, chunk) => total + chunk.to - chunk.from, 0);

/** First position in the ascending `keys` whose key is at least `key`. */
function lowerBound<T extends number | bigint>(keys: readonly T[], key: T): number {
  let low = 0;
  let high = keys.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (keys[middle]! < key) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * A field whose value is one key or a wildcard (null): interface, protocol, family. A rule can be
 * covered by a wildcard or its own key; it meets those too, and everything when it is a wildcard.
 */
class KeyedDimension implements Dimension {
  private readonly wildcard: number[] = [];
  private readonly byKey = new Map<string, number[]>();

  constructor(
    matches: readonly RuleMatch[],
    members: readonly number[],
    private readonly keyOf: (rule: RuleMatch) => string | null,
  ) {
    for (const index of members) {
      const key = keyOf(matches[index]!);
      if (key === null) this.wildcard.push(index);
      else {
        const list = this.byKey.get(key);
        if (list) list.push(index);
        else this.byKey.set(key, [index]);
      }
    }
  }

  coverers(rule: RuleMatch): Chunk[] {
    const key = this.keyOf(rule);
    const own = key === null ? undefined : this.byKey.get(key);
    return own ? [whole(this.wildcard), whole(own)] : [whole(this.wildcard)];
  }

  meeting(rule: RuleMatch): Candidates {
    return this.keyOf(rule) === null ? null : this.coverers(rule);
  }
}

/**
 * Port lists. Each range of each rule is filed by its length class c (at most 2^c ports) in a list
 * sorted by first port, so the ranges meeting [from, to] of class c start in [from - 2^c + 1, to]:
 * one binary search per class.
 */
class PortDimension implements Dimension {
  private readonly unrestricted: number[] = [];
  private readonly classes: { size: number; starts: number[]; rules: number[] }[] = [];

  constructor(
    matches: readonly RuleMatch[],
    members: readonly number[],
    private readonly portsOf: (rule: RuleMatch) => PortSpec,
  ) {
    const filed = new Map<number, { start: number; rule: number }[]>();
    for (const index of members) {
      const ports = portsOf(matches[index]!);
      if (ports === null) {
        this.unrestricted.push(index);
        continue;
      }
      for (const range of ports) {
        const lengthClass = Math.ceil(Math.log2(range.to - range.from + 1));
        const list = filed.get(lengthClass) ?? [];
        list.push({ start: range.from, rule: index });
        filed.set(lengthClass, list);
      }
    }
    for (const [lengthClass, list] of filed) {
      list.sort((a, b) => a.start - b.start);
      this.classes.push({
        size: 2 ** lengthClass,
        starts: list.map((entry) => entry.start),
        rules: list.map((entry) => entry.rule),
      });
    }
  }

  private starting(from: number, to: number): Chunk[] {
    return this.classes.map(({ size, starts, rules }) => ({
      indexes: rules,
      from: lowerBound(starts, from - size + 1),
      to: lowerBound(starts, to + 1),
      ordered: false,
    }));
  }

  coverers(rule: RuleMatch): Chunk[] {
    const ports = this.portsOf(rule);
    // A rule covering these ports contains the first one.
    const first = ports?.[0]?.from;
    return first === undefined
      ? [whole(this.unrestricted)]
      : [whole(this.unrestricted), ...this.starting(first, first)];
  }

  meeting(rule: RuleMatch): Candidates {
    const ports = this.portsOf(rule);
    if (ports === null) return null;
    return [whole(this.unrestricted), ...ports.flatMap((range) => this.starting(range.from, range.to))];
  }
}

/**
 * Addresses. A network is covered by `any` and by the networks that enclose it, found by exact
 * lookup at each prefix length in use; it meets those and the networks inside it, a range of the
 * list sorted by network address.
 */
class NetworkDimension implements Dimension {
  private readonly unrestricted: number[] = [];
  /** Family, then prefix length, then network address: the rules of each network in use. */
  private readonly byNetwork = new Map<Family, Map<number, Map<bigint, number[]>>>();
  private readonly sorted = new Map<Family, { bases: bigint[]; rules: number[] }>();

  constructor(
    matches: readonly RuleMatch[],
    members: readonly number[],
    private readonly networkOf: (rule: RuleMatch) => Network | null,
  ) {
    const byFamily = new Map<Family, { base: bigint; rule: number }[]>();
    for (const index of members) {
      const network = networkOf(matches[index]!);
      if (network === null) {
        this.unrestricted.push(index);
        continue;
      }
      const prefixes = this.byNetwork.get(network.family) ?? new Map<number, Map<bigint, number[]>>();
      this.byNetwork.set(network.family, prefixes);
      const bases = prefixes.get(network.prefix) ?? new Map<bigint, number[]>();
      prefixes.set(network.prefix, bases);
      const list = bases.get(network.base);
      if (list) list.push(index);
      else bases.set(network.base, [index]);
      const entries = byFamily.get(network.family) ?? [];
      entries.push({ base: network.base, rule: index });
      byFamily.set(network.family, entries);
    }
    for (const [family, entries] of byFamily) {
      entries.sort((a, b) => (a.base < b.base ? -1 : a.base > b.base ? 1 : 0));
      this.sorted.set(family, { bases: entries.map((e) => e.base), rules: entries.map((e) => e.rule) });
    }
  }

  coverers(rule: RuleMatch): Chunk[] {
    const network = this.networkOf(rule);
    const chunks = [whole(this.unrestricted)];
    if (network === null) return chunks;
    for (const [prefix, bases] of this.byNetwork.get(network.family) ?? []) {
      if (prefix > network.prefix) continue;
      const enclosing = bases.get(enclosingNetwork(network, prefix).base);
      if (enclosing) chunks.push(whole(enclosing));
    }
    return chunks;
  }

  meeting(rule: RuleMatch): Candidates {
    const network = this.networkOf(rule);
    if (network === null) return null;
    const chunks = this.coverers(rule);
    const inside = this.sorted.get(network.family);
    if (inside) {
      chunks.push({
        indexes: inside.rules,
        from: lowerBound(inside.bases, network.base),
        to: lowerBound(inside.bases, lastAddress(network) + 1n),
        ordered: false,
      });
    }
    return chunks;
  }
}

/** The rules of one direction (rules of different directions never relate). */
class DirectionIndex {
  readonly members: number[] = [];
  private dimensions: Dimension[] = [];

  build(matches: readonly RuleMatch[]): void {
    const members = this.members;
    this.dimensions = [
      new PortDimension(matches, members, (rule) => rule.destinationPorts),
      new PortDimension(matches, members, (rule) => rule.sourcePorts),
      new NetworkDimension(matches, members, (rule) => rule.source),
      new NetworkDimension(matches, members, (rule) => rule.destination),
      new KeyedDimension(matches, members, (rule) => rule.interface),
      new KeyedDimension(matches, members, (rule) => (rule.protocol === 'any' ? null : rule.protocol)),
      new KeyedDimension(matches, members, (rule) =>
        rule.families.size === 2 ? null : [...rule.families][0]!,
      ),
    ];
  }

  /** The smallest superset of the rules that may cover `rule`. */
  coverers(rule: RuleMatch): Chunk[] {
    return smallest(this.dimensions.map((dimension) => dimension.coverers(rule))) ?? [];
  }

  /** The smallest superset of the rules that may share a packet with `rule`. */
  meeting(rule: RuleMatch): Chunk[] {
    return smallest(this.dimensions.map((dimension) => dimension.meeting(rule))) ?? [whole(this.members)];
  }
}

function smallest(candidates: Candidates[]): Chunk[] | null {
  let best: Chunk[] | null = null;
  let bestSize = Number.POSITIVE_INFINITY;
  for (const chunks of candidates) {
    if (chunks === null) continue;
    const size = chunkSize(chunks);
    if (size < bestSize) {
      best = chunks;
      bestSize = size;
    }
  }
  return best;
}

export class RuleIndex {
  private readonly byDirection = new Map<RuleMatch['direction'], DirectionIndex>();

  constructor(matches: readonly RuleMatch[]) {
    matches.forEach((match, index) => {
      const direction = this.byDirection.get(match.direction) ?? new DirectionIndex();
      direction.members.push(index);
      this.byDirection.set(match.direction, direction);
    });
    for (const direction of this.byDirection.values()) direction.build(matches);
  }

  coverers(rule: RuleMatch): Chunk[] {
    return this.byDirection.get(rule.direction)?.coverers(rule) ?? [];
  }

  meeting(rule: RuleMatch): Chunk[] {
    return this.byDirection.get(rule.direction)?.meeting(rule) ?? [];
  }
}
