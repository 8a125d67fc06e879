/**
 * @module Tests: blocklists in the kernel on both iptables variants, through the agent's socket.
 * A list becomes two ipset `hash:net` sets, replaced whole by a swap; a rule naming it matches
 * the set from our chain and reads back as `@name`; an unconfirmed safe apply puts the previous
 * entries back; a change refused while its lists are staged leaves no staging set and the live
 * sets as they were; restore points hold and restore lists; a list a rule names cannot be deleted and
 * a rule cannot name a list that does not exist; a set changed by hand is read again for a
 * restore point. The sandbox's sets are its own (ipset is per
 * network namespace): the host's sets are compared before and after.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { call } from '../agent/support/agent-process.js';
import { exec, namespaceSkipReason } from '../engine/support/netns.js';
import {
  bundledAgentForFile,
  createVariantSandbox,
  eventually,
  type Sandbox,
  type SandboxAgent,
  sandboxSave,
  startSandboxAgent,
} from './support/sandbox.js';

const abuse = {
  name: 'abuse',
  comment: 'abuse feed',
  // Merged, as the server and the CLI send them (the agent checks, it does not merge).
  entries: ['192.0.2.7', '198.51.100.0/24', '2001:db8::/64'],
};
const denyAbuse = { direction: 'in', action: 'deny', protocol: 'any', source: '@abuse' };

/** Each of our sets and its entries, sorted (ipset prints a hash's order). */
async function ourSets(sandbox: Sandbox): Promise<Record<string, string[]>> {
  const saved = (await sandbox.exec(['ipset', 'save'])).stdout;
  const sets: Record<string, string[]> = {};
  for (const line of saved.split('\n')) {
    const [verb, set, entry] = line.split(' ');
    if (verb === 'create') sets[set!] = [];
    if (verb === 'add') sets[set!]!.push(entry!);
  }
  for (const entries of Object.values(sets)) entries.sort();
  return sets;
}

const hostSets = async () => (await exec(['ipset', 'save'])).stdout;

describe.skipIf(namespaceSkipReason !== null).each(['nf_tables', 'legacy'] as const)(
  'blocklists on iptables %s',
  (variant) => {
    const bundle = bundledAgentForFile();
    let hostBefore = '';
    let sandbox: Sandbox;
    let agent: SandboxAgent | undefined;
    const ask = async (op: string, params?: object) => call(agent!.socketPath, op, params);

    beforeAll(async () => {
      hostBefore = await hostSets();
    });
    afterAll(async () => {
      expect(await hostSets()).toBe(hostBefore);
    });
    beforeEach(async () => {
      sandbox = await createVariantSandbox(variant);
      agent = await startSandboxAgent(sandbox, bundle(), { backend: 'iptables' });
    });
    afterEach(async () => {
      await agent?.stop();
      agent = undefined;
      await sandbox.remove();
    });

    test('a list becomes sets per family; a rule naming it matches the set and reads back', async () => {
      expect((await ask('apply', { blocklists: { set: [abuse] } })).ok).toBe(true);
      expect(await ourSets(sandbox)).toEqual({
        'fw4-abuse': ['192.0.2.7', '198.51.100.0/24'],
        'fw6-abuse': ['2001:db8::/64'],
      });
      const header = (await sandbox.exec(['ipset', 'list', '-t', 'fw4-abuse'])).stdout;
      expect(header).toContain('Type: hash:net');
      expect(header).toContain('maxelem 1000000');

      expect((await ask('apply', { rules: [denyAbuse] })).ok).toBe(true);
      const saved = await sandboxSave(sandbox);
      expect(saved).toContain('-A FIREWARDEN-INPUT -m set --match-set fw4-abuse src -j DROP');
      expect(saved).toContain('-A FIREWARDEN-INPUT -m set --match-set fw6-abuse src -j DROP');
      const read = (await ask('read_rules', { address: '198.51.100.200' })).result;
      expect(read.rules).toMatchObject([{ source: '@abuse', family: 'both', action: 'deny' }]);
      expect(read.unparsed).toEqual([]);
      expect(read.blocklists).toEqual([{ name: 'abuse', family: 'both', comment: 'abuse feed', entries: 3 }]);
      expect(read.address_in_blocklists).toEqual(['abuse']);
      expect((await ask('read_rules', { address: '203.0.113.1' })).result.address_in_blocklists).toEqual([]);

      // Replaced whole: the next version is all there is, swapped in (no staging set left).
      expect(
        (await ask('apply', { blocklists: { set: [{ name: 'abuse', entries: ['203.0.113.0/24'] }] } })).ok,
      ).toBe(true);
      expect(await ourSets(sandbox)).toEqual({ 'fw4-abuse': ['203.0.113.0/24'], 'fw6-abuse': [] });
      expect((await ask('blocklists', { name: 'abuse' })).result.blocklist).toEqual({
        name: 'abuse',
        family: 'both',
        comment: null,
        entries: { ipv4: ['203.0.113.0/24'], ipv6: [] },
      });
    });

    test('a rule cannot name a missing list, and a named list cannot be deleted', async () => {
      const unknown = await ask('apply', { rules: [denyAbuse] });
      expect(unknown.error).toMatchObject({
        code: 'FW_VALIDATION_FAILED',
        details: { errors: [{ path: 'rules.0.source', code: 'unknown_blocklist' }] },
      });
      expect((await ask('apply', { blocklists: { set: [abuse] } })).ok).toBe(true);
      expect((await ask('apply', { rules: [denyAbuse] })).ok).toBe(true);
      const inUse = await ask('apply', { blocklists: { delete: ['abuse'] } });
      expect(inUse.error).toMatchObject({
        code: 'FW_BLOCKLIST_IN_USE',
        details: { rules: [{ position: 1, rule: { source: '@abuse' } }] },
      });
      expect(Object.keys(await ourSets(sandbox))).toEqual(['fw4-abuse', 'fw6-abuse']);
      expect((await ask('apply', { rules: [] })).ok).toBe(true);
      expect((await ask('apply', { blocklists: { delete: ['abuse'] } })).ok).toBe(true);
      expect(await ourSets(sandbox)).toEqual({});
      expect((await ask('blocklists', { name: 'abuse' })).error.code).toBe('FW_BLOCKLIST_NOT_FOUND');
    });

    test('a change refused while its lists are built in staging sets leaves the kernel as it was', async () => {
      expect((await ask('apply', { blocklists: { set: [abuse] } })).ok).toBe(true);
      const before = await ourSets(sandbox);
      // The lists are checked and staged before the rules are judged against them: the refusal
      // comes while (or after) ipset fills the staging sets, which must go, the live ones stay.
      const refused = await ask('apply', {
        rules: [{ ...denyAbuse, source: '@missing' }],
        blocklists: { set: [{ name: 'abuse', entries: ['10.9.0.0/16', '10.10.0.1'] }] },
      });
      expect(refused.error).toMatchObject({ code: 'FW_VALIDATION_FAILED' });
      expect(await ourSets(sandbox)).toEqual(before);
      expect(
        (await ask('apply', { blocklists: { set: [{ name: 'abuse', entries: ['10.9.0.0/16'] }] } })).ok,
      ).toBe(true);
      expect(await ourSets(sandbox)).toEqual({ 'fw4-abuse': ['10.9.0.0/16'], 'fw6-abuse': [] });
    });

    test('an unconfirmed safe apply puts the previous entries back', async () => {
      expect((await ask('apply', { blocklists: { set: [abuse] } })).ok).toBe(true);
      const before = await ourSets(sandbox);
      const begun = await ask('begin_safe_apply', {
        blocklists: {
          set: [
            { name: 'abuse', entries: ['10.9.0.0/16'] },
            { name: 'extra', entries: ['10.8.0.1'] },
          ],
        },
        timeout_seconds: 3,
      });
      expect(begun.ok).toBe(true);
      expect((await ourSets(sandbox))['fw4-abuse']).toEqual(['10.9.0.0/16']);
      await eventually(
        async () => JSON.stringify(await ourSets(sandbox)) === JSON.stringify(before),
        'the previous entries back, the new list gone',
      );
      expect((await ask('status')).result.pending_transaction).toBeNull();
    });

    test('a restore point holds the lists and restores them with the rules naming them', async () => {
      expect((await ask('apply', { blocklists: { set: [abuse] } })).ok).toBe(true);
      expect((await ask('apply', { rules: [denyAbuse] })).ok).toBe(true);
      const point = await ask('snapshot', { kind: 'manual' });
      const [setsAtPoint, rulesAtPoint] = [await ourSets(sandbox), await sandboxSave(sandbox)];
      expect((await ask('apply', { rules: [] })).ok).toBe(true);
      expect(
        (
          await ask('apply', {
            blocklists: { set: [{ name: 'other', entries: ['10.1.1.1'] }], delete: ['abuse'] },
          })
        ).ok,
      ).toBe(true);
      expect(Object.keys(await ourSets(sandbox))).toEqual(['fw4-other', 'fw6-other']);
      expect((await ask('restore', { snapshot_id: point.result.id })).ok).toBe(true);
      expect(await ourSets(sandbox)).toEqual(setsAtPoint);
      expect(await sandboxSave(sandbox)).toBe(rulesAtPoint);
      expect((await ask('blocklists')).result.blocklists).toEqual([
        { name: 'abuse', family: 'both', comment: 'abuse feed', entries: 3 },
      ]);
    });

    test("a set changed behind the agent's back is read again for a restore point", async () => {
      expect((await ask('apply', { blocklists: { set: [abuse] } })).ok).toBe(true);
      // The agent remembers what it wrote; another hand adds an entry to our set.
      expect((await sandbox.exec(['ipset', 'add', 'fw4-abuse', '10.77.0.1'])).code).toBe(0);
      const changed = await ourSets(sandbox);
      const point = await ask('snapshot', { kind: 'manual' });
      expect(
        (await ask('apply', { blocklists: { set: [{ name: 'abuse', entries: ['10.1.1.1'] }] } })).ok,
      ).toBe(true);
      expect((await ask('restore', { snapshot_id: point.result.id })).ok).toBe(true);
      expect(await ourSets(sandbox)).toEqual(changed);
      expect(changed['fw4-abuse']).toContain('10.77.0.1');
    });

    test('bad entries and names are refused before anything is written', async () => {
      const answer = await ask('apply', {
        blocklists: {
          set: [
            { name: 'Bad Name', entries: ['192.0.2.1', '192.0.2.1\ncreate x hash:ip'] },
            { name: 'unmerged', entries: ['192.0.2.0/24', '192.0.2.7'] },
          ],
        },
      });
      expect(answer.error.code).toBe('FW_VALIDATION_FAILED');
      expect(answer.error.details.errors.map((e: { path: string }) => e.path)).toEqual([
        'blocklists.set.0.name',
        'blocklists.set.0.entries.1',
        'blocklists.set.1.entries.1',
      ]);
      expect(answer.error.details.errors[2].code).toBe('not_merged');
      expect(await ourSets(sandbox)).toEqual({});
    });
  },
);
