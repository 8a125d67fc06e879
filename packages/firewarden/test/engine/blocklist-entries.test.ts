/**
 * @module Tests: a blocklist's entries merge into blocks covering exactly the addresses sent,
 * checked against an independent oracle (every address of every entry enumerated with the rule
 * model's BigInt parser, in small address spaces so enumeration is exact), and bad entries are
 * each reported with their path.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { formatNetwork, lastAddress, parseNetwork } from '../../src/engine/addresses.js';
import { isBlocklistName, listOfSet, setName, stagingSetName } from '../../src/engine/blocklist.js';
import {
  BlocklistMerge,
  checkMergedEntries,
  type EntriesResult,
  mergeBlocklistEntries,
} from '../../src/engine/blocklist-entries.js';

/** Every address the entries cover, as `family:integer` keys. */
function covered(entries: readonly string[]): Set<string> {
  const addresses = new Set<string>();
  for (const entry of entries) {
    const network = parseNetwork(entry)!;
    for (let a = network.base; a <= lastAddress(network); a += 1n) addresses.add(`${network.family}:${a}`);
  }
  return addresses;
}

/** Entries inside 10.0.0.0/22 or 2001:db8::/118 (1,024 addresses each), any prefix there. */
const v4Entry = fc
  .tuple(fc.integer({ min: 0, max: 1023 }), fc.integer({ min: 22, max: 32 }))
  .map(([offset, prefix]) => {
    const text = `10.0.${offset >> 8}.${offset & 255}`;
    return prefix === 32 && offset % 2 === 0 ? text : `${text}/${prefix}`;
  });
const v6Entry = fc
  .tuple(fc.integer({ min: 0, max: 1023 }), fc.integer({ min: 118, max: 128 }))
  .map(([offset, prefix]) => `2001:db8::${offset.toString(16)}/${prefix}`);

describe('mergeBlocklistEntries', () => {
  test('the merged blocks cover exactly the addresses of the entries (independent oracle)', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(v4Entry, v6Entry), { maxLength: 60 }), (entries) => {
        const result = mergeBlocklistEntries(entries);
        expect(result.ok).toBe(true);
        if (!result.ok) return;
        const blocks = [...result.entries.ipv4, ...result.entries.ipv6];
        expect(covered(blocks)).toEqual(covered(entries));
        // Disjoint, no duplicates, never more blocks than entries, and merging again changes nothing.
        expect(covered(blocks).size).toBe(
          blocks.reduce(
            (sum, b) => sum + Number(lastAddress(parseNetwork(b)!) - parseNetwork(b)!.base + 1n),
            0,
          ),
        );
        expect(blocks.length).toBeLessThanOrEqual(entries.length);
        const again = mergeBlocklistEntries(blocks);
        expect(again.ok && again.entries).toEqual(result.entries);
        // `holds` answers as the oracle does, for every address of the space.
        const oracle = covered(entries);
        for (let offset = 0; offset < 1024; offset += 37) {
          const v4 = `10.0.${offset >> 8}.${offset & 255}`;
          expect(result.holds(v4)).toBe(oracle.has(`ipv4:${parseNetwork(v4)!.base}`));
          const v6 = `2001:db8::${offset.toString(16)}`;
          expect(result.holds(v6)).toBe(oracle.has(`ipv6:${parseNetwork(v6)!.base}`));
        }
      }),
      { numRuns: 300 },
    );
  });

  test('merged a few items per turn, as the server does, the result is the same', () => {
    const anyEntry = fc.oneof(v4Entry, v6Entry, fc.constantFrom('not an address', '10.0.0.1/33', ''));
    fc.assert(
      fc.property(fc.array(anyEntry, { maxLength: 60 }), fc.integer({ min: 1, max: 7 }), (entries, slice) => {
        const stepped = new BlocklistMerge(entries, 'both', 'entries');
        let turns = 0;
        while (!stepped.advance(slice)) turns += 1;
        const whole = mergeBlocklistEntries(entries);
        const { holds: _a, ...steppedResult } = stepped.result() as Extract<EntriesResult, { ok: true }>;
        const { holds: _b, ...wholeResult } = whole as Extract<EntriesResult, { ok: true }>;
        expect(steppedResult).toEqual(wholeResult);
        // The parse alone took a turn per slice of entries.
        expect(turns).toBeGreaterThanOrEqual(Math.ceil(entries.length / slice) - 1);
      }),
      { numRuns: 300 },
    );
  });

  test('duplicates, overlaps and adjacent blocks merge into the fewest canonical blocks', () => {
    const result = mergeBlocklistEntries([
      '192.0.2.7',
      '192.0.2.7',
      '192.0.2.7/32',
      '10.0.0.0/25',
      '10.0.0.128/25',
      '10.0.0.5',
      '198.51.100.9/24',
      '2001:DB8:0:0::1',
      '2001:db8::/127',
    ]);
    expect(result.ok && result.entries).toEqual({
      ipv4: ['10.0.0.0/24', '192.0.2.7', '198.51.100.0/24'],
      ipv6: ['2001:db8::/127'],
    });
    expect(result.ok && [result.received, result.stored]).toEqual([9, 4]);
  });

  test('an entry is kept as sent only when that is its canonical form', () => {
    // A block that is one entry reuses the entry's text: "/32" and host bits must still go.
    const result = mergeBlocklistEntries([
      '203.0.113.9/32',
      '198.51.100.9/24',
      '10.1.0.0/16',
      '192.0.2.1',
      '192.0.2.7/32',
      '192.0.2.7',
    ]);
    expect(result.ok && result.entries.ipv4).toEqual([
      '10.1.0.0/16',
      '192.0.2.1',
      '192.0.2.7',
      '198.51.100.0/24',
      '203.0.113.9',
    ]);
  });

  test('a whole family becomes its two halves (hash:net holds no /0)', () => {
    const result = mergeBlocklistEntries(['0.0.0.0/0', '1.2.3.4', '::/0']);
    expect(result.ok && result.entries).toEqual({
      ipv4: ['0.0.0.0/1', '128.0.0.0/1'],
      ipv6: ['::/1', '8000::/1'],
    });
  });

  test('every bad entry is reported with its path; none is guessed at', () => {
    const bad = [
      '01.2.3.4',
      '1.2.3.4/33',
      '',
      'fe80::1%eth0',
      7,
      '1.2.3',
      '1.2.3.4/',
      'host.example',
      '256.0.0.1',
    ];
    const result = mergeBlocklistEntries(['192.0.2.1', ...bad]);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.map((e) => e.path)).toEqual(bad.map((_, i) => `entries.${i + 1}`));
    expect(new Set(result.errors.map((e) => e.code))).toEqual(new Set(['invalid_address']));
    expect(result.invalid).toBe(bad.length);
  });

  test('entries of the other family are refused on a single-family list', () => {
    const result = mergeBlocklistEntries(['192.0.2.1', '2001:db8::1'], 'ipv4');
    expect(!result.ok && result.errors).toEqual([
      { path: 'entries.1', code: 'family_mismatch', message: 'is IPv6 but the list is ipv4' },
    ]);
  });

  test('at most 100 problems are listed, all are counted', () => {
    const result = mergeBlocklistEntries(Array.from({ length: 250 }, () => 'nope'));
    expect(!result.ok && [result.errors.length, result.invalid]).toEqual([100, 250]);
  });

  test('IPv4 text is read as node reads it, on random input', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 20 }), (text) => {
        const ours = mergeBlocklistEntries([text]);
        const network = parseNetwork(text);
        expect(ours.ok).toBe(network !== null && !text.includes('%'));
      }),
    );
  });
});

describe('checkMergedEntries (what the agent runs on what it is sent)', () => {
  test('accepts what the merge gives and refuses it out of order, overlapping or repeated', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(v4Entry, v6Entry), { minLength: 1, maxLength: 60 }), (entries) => {
        const merged = mergeBlocklistEntries(entries);
        if (!merged.ok) return;
        const flat = [...merged.entries.ipv4, ...merged.entries.ipv6];
        expect(checkMergedEntries(flat)).toEqual({ ok: true, entries: merged.entries });
        const repeated = [...flat, flat[flat.length - 1]!];
        expect(checkMergedEntries(repeated).ok).toBe(false);
        if (merged.entries.ipv4.length > 1) {
          expect(checkMergedEntries([...merged.entries.ipv4].reverse()).ok).toBe(false);
        }
      }),
      { numRuns: 200 },
    );
    const refused = (entries: string[]) => {
      const result = checkMergedEntries(entries);
      return result.ok ? null : result.errors[0]!.code;
    };
    expect(refused(['10.0.0.0/24', '10.0.0.200'])).toBe('not_merged');
    expect(refused(['2001:db8::1', '10.0.0.1'])).toBe('not_merged');
    expect(refused(['10.0.0.1', 'add x 1.2.3.4'])).toBe('invalid_address');
  });
});

describe('blocklist names', () => {
  test('names are short and safe; their sets fit ipset and map back', () => {
    expect(['abuse', 'f2b-sshd', 'a_1', 'x'.repeat(24)].every(isBlocklistName)).toBe(true);
    expect(['', '-a', 'A', 'a b', 'a/b', 'x'.repeat(25), 'é', '_a'].some(isBlocklistName)).toBe(false);
    const longest = 'x'.repeat(24);
    expect(stagingSetName(longest, 'ipv6').length).toBeLessThanOrEqual(31);
    expect(listOfSet(setName('abuse', 'ipv6'))).toEqual({ list: 'abuse', family: 'ipv6' });
    expect(listOfSet('f2b-sshd')).toBeNull();
    expect(listOfSet(stagingSetName('abuse', 'ipv4'))).toBeNull();
  });
});

/**
 * The reference: each entry as a BigInt interval through the rule model's parser, sorted and
 * merged naively, each merged interval cut greedily into the largest aligned blocks.
 */
function referenceIpv6Blocks(entries: readonly string[]): string[] {
  const intervals = entries
    .map((entry) => parseNetwork(entry)!)
    .map((network) => [network.base, lastAddress(network)] as const)
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const merged: [bigint, bigint][] = [];
  for (const [start, end] of intervals) {
    const last = merged[merged.length - 1];
    if (last !== undefined && start <= last[1] + 1n) last[1] = end > last[1] ? end : last[1];
    else merged.push([start, end]);
  }
  const blocks: string[] = [];
  for (const [first, end] of merged) {
    for (let start = first; start <= end; ) {
      let prefix = 128;
      while (
        prefix > 1 &&
        start % (2n << BigInt(128 - prefix)) === 0n &&
        start + (2n << BigInt(128 - prefix)) - 1n <= end
      )
        prefix -= 1;
      blocks.push(formatNetwork({ family: 'ipv6', base: start, prefix }));
      start += 1n << BigInt(128 - prefix);
    }
  }
  return blocks;
}

/** An IPv6 address as text in one of the forms clients send: full, compressed, upper case, IPv4 tail. */
const ipv6Text = fc
  .tuple(
    fc.array(fc.oneof(fc.constant(0), fc.constant(0xffff), fc.integer({ min: 0, max: 0xffff })), {
      minLength: 8,
      maxLength: 8,
    }),
    fc.constantFrom('canonical', 'full', 'upper', 'ipv4-tail'),
  )
  .map(([groups, form]) => {
    const value = groups.reduce((sum, group) => (sum << 16n) | BigInt(group), 0n);
    const canonical = formatNetwork({ family: 'ipv6', base: value, prefix: 128 });
    if (form === 'full') return groups.map((g) => g.toString(16).padStart(4, '0')).join(':');
    if (form === 'upper') return canonical.toUpperCase();
    if (form === 'ipv4-tail') {
      const [g6, g7] = [groups[6]!, groups[7]!];
      return `${groups
        .slice(0, 6)
        .map((g) => g.toString(16))
        .join(':')}:${g6 >> 8}.${g6 & 255}.${g7 >> 8}.${g7 & 255}`;
    }
    return canonical;
  });

describe('the IPv6 merge (four 32-bit words, no BigInt)', () => {
  test('gives the blocks of a BigInt reference over the whole address space', () => {
    // Entries near each other (a shared random stem) so they overlap and touch, and anywhere.
    const entry = fc
      .tuple(ipv6Text, fc.integer({ min: 0, max: 128 }))
      .map(([address, prefix]) => (prefix === 128 ? address : `${address}/${prefix}`));
    const near = fc
      .tuple(
        fc.integer({ min: 0, max: 0xffff }),
        fc.integer({ min: 0, max: 300 }),
        fc.integer({ min: 112, max: 128 }),
      )
      .map(([stem, offset, prefix]) => `2001:db8::${stem.toString(16)}:${offset.toString(16)}/${prefix}`);
    const edges = fc.constantFrom(
      '::',
      '::/1',
      '::1',
      'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff',
      'ffff::/16',
      '8000::/1',
      '::/0',
    );
    fc.assert(
      fc.property(fc.array(fc.oneof(entry, near, edges), { maxLength: 80 }), (entries) => {
        const result = mergeBlocklistEntries(entries, 'ipv6');
        expect(result.ok && result.entries).toEqual({ ipv4: [], ipv6: referenceIpv6Blocks(entries) });
        if (!result.ok) return;
        // What the agent checks accepts it, and `holds` agrees with the reference's intervals.
        expect(checkMergedEntries(result.entries.ipv6, 'ipv6')).toEqual({
          ok: true,
          entries: result.entries,
        });
        for (const text of entries.slice(0, 5)) {
          const address = text.split('/')[0]!;
          expect(result.holds(address)).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });

  test('reads every text form of an address as the rule model does', () => {
    fc.assert(
      fc.property(ipv6Text, (text) => {
        const result = mergeBlocklistEntries([text]);
        expect(result.ok && result.entries.ipv6).toEqual([formatNetwork(parseNetwork(text)!)]);
      }),
      { numRuns: 1000 },
    );
  });
});
