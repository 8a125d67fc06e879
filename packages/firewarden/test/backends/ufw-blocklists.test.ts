/**
 * @module Tests: blocklists on the ufw backend, the agent as its own process in a network
 * namespace with private copies of /etc/ufw and /etc/default, real ufw and ipset, and real TCP
 * traffic from two source addresses of a second namespace. A rule naming a list drops the listed
 * address and lets the other through (ufw's own allow of the port comes after it); `ufw reload`,
 * `ufw disable` + `enable`, and a kernel that lost its sets and our chain (a reboot) keep it so,
 * before.init creating the sets from firewarden's copy; an unconfirmed safe apply puts the files
 * (content and mode) and the sets back; removing the rule and the list removes the marked blocks;
 * a hand edit inside a block is copied beside the file, and named in the answer, before a write
 * replaces the block.
 */
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { blockEnd } from '../../src/engine/ufw-blocklist-rules.js';
import { call } from '../agent/support/agent-process.js';
import { namespaceSkipReason } from '../engine/support/netns.js';
import {
  bundledAgentForFile,
  createSandbox,
  eventually,
  type Sandbox,
  type SandboxAgent,
  startSandboxAgent,
  withUfwCopies,
} from './support/sandbox.js';
import {
  clientAddresses,
  listenerPort,
  type TwoSourceClient,
  twoSourceClient,
} from './support/two-source-client.js';

const [listed, unlisted] = clientAddresses;
const abuse = { name: 'abuse', entries: [`${listed}`, '2001:db8::/64'] };
const denyAbuse = { direction: 'in', action: 'deny', protocol: 'any', source: '@abuse' };
const allowPort = {
  direction: 'in',
  action: 'allow',
  protocol: 'tcp',
  destination_port: String(listenerPort),
};
const hookFiles = ['user.rules', 'user6.rules', 'before.rules', 'before6.rules', 'before.init'];

describe.skipIf(namespaceSkipReason !== null)('blocklists on the ufw backend', () => {
  const bundle = bundledAgentForFile();
  let sandbox: Sandbox;
  let ufw: ReturnType<typeof withUfwCopies>;
  let agent: SandboxAgent;
  let client: TwoSourceClient;
  const ask = (op: string, params?: object) => call(agent.socketPath, op, params);
  const must = async (argv: string[]) => expect((await sandbox.exec(argv)).code, argv.join(' ')).toBe(0);
  /** Each hook file's content and mode (absent files as such). */
  const files = () =>
    hookFiles.map((file) => {
      const where = path.join(ufw.ufwDir, file);
      const mode = statSync(where, { throwIfNoEntry: false })?.mode;
      return {
        file,
        mode: mode === undefined ? null : mode & 0o777,
        text: mode === undefined ? null : ufw.read(file),
      };
    });
  /** ipset's sets and entries, without the hash seed a set gets anew at each creation. */
  const sets = async () =>
    (await sandbox.exec(['ipset', 'save'])).stdout.replace(/ initval 0x[0-9a-f]+/g, '');
  /** The files (content and mode) and sets as given, and the rollback over (it ends with ufw's reload). */
  const rolledBack = (filesThen: ReturnType<typeof files>, setsThen: string) =>
    eventually(
      async () =>
        JSON.stringify(files()) === JSON.stringify(filesThen) &&
        (await sets()) === setsThen &&
        (await ask('status')).result.pending_transaction === null,
      'files and sets as before the safe apply, the rollback over',
    );
  const reaches = async () => ({
    listed: await client.knock(listed),
    unlisted: await client.knock(unlisted),
  });

  beforeEach(async () => {
    sandbox = await createSandbox();
    ufw = withUfwCopies(sandbox);
    await must(['ufw', '--force', 'enable']);
    await must(['ufw', 'reload']);
    client = await twoSourceClient(sandbox);
    agent = await startSandboxAgent(sandbox, bundle(), { backend: 'ufw' });
  });
  afterEach(async () => {
    await agent.stop();
    await client.remove();
    await sandbox.remove();
  });

  test('a rule naming a list drops the listed source before ufw’s rules, through reload, disable/enable and a reboot', async () => {
    expect((await ask('apply', { blocklists: { set: [abuse] } })).ok).toBe(true);
    expect((await ask('apply', { rules: [allowPort, denyAbuse] })).ok).toBe(true);
    // Checked first wherever the list puts it: read back in the order the kernel checks.
    const read = (await ask('read_rules')).result;
    expect(read.rules).toMatchObject([{ source: '@abuse', action: 'deny', family: 'both' }, allowPort]);
    expect(read.unparsed).toEqual([]);
    expect(read.foreign.some((line: { chain: string }) => line.chain === 'firewarden-blocklists')).toBe(
      false,
    );
    expect(ufw.read('user.rules')).not.toContain('abuse');
    expect(ufw.read('before.rules')).toContain(
      '-A firewarden-blocklists -m set --match-set fw4-abuse src -j DROP',
    );
    expect(ufw.read('before6.rules')).toContain(
      '-A firewarden-blocklists -m set --match-set fw6-abuse src -j DROP',
    );
    expect(statSync(path.join(ufw.ufwDir, 'before.init')).mode & 0o100).not.toBe(0);
    const expected = { listed: 'timeout', unlisted: 'hello' };
    expect(await reaches()).toEqual(expected);

    await must(['ufw', 'reload']);
    expect(await reaches()).toEqual(expected);

    await must(['ufw', '--force', 'disable']);
    expect(await reaches()).toEqual({ listed: 'hello', unlisted: 'hello' });
    await must(['ufw', '--force', 'enable']);
    expect(await reaches()).toEqual(expected);

    // A reboot: the kernel loses our chain and the sets; the files stay. ufw's start (before.init)
    // creates the sets from the copy, then loads before.rules naming them.
    const setsBefore = await sets();
    await must(['ufw', '--force', 'disable']);
    for (const tool of ['iptables', 'ip6tables']) {
      await must([tool, '-F', 'firewarden-blocklists']);
      await must([tool, '-X', 'firewarden-blocklists']);
    }
    await must(['ipset', 'destroy', 'fw4-abuse']);
    await must(['ipset', 'destroy', 'fw6-abuse']);
    await must(['ufw', '--force', 'enable']);
    expect(await sets()).toBe(setsBefore);
    expect(await reaches()).toEqual(expected);
  });

  test('an unconfirmed safe apply puts the files, their modes and the sets back', async () => {
    const filesBefore = files();
    const setsBefore = await sets();
    const begun = await ask('begin_safe_apply', {
      blocklists: { set: [abuse] },
      rules: [allowPort, denyAbuse],
      timeout_seconds: 4,
    });
    expect(begun.ok).toBe(true);
    expect(files()).not.toEqual(filesBefore);
    expect(await client.knock(listed)).toBe('timeout');
    await rolledBack(filesBefore, setsBefore);
    expect(await sandbox.exec(['iptables', '-S', 'firewarden-blocklists'])).toMatchObject({ code: 1 });
    // The port's allow went with the rollback: nothing answers from either address.
    expect(await reaches()).toEqual({ listed: 'timeout', unlisted: 'timeout' });

    // Rolled back from a state that had a list and a rule: the new entries go, the old come back.
    expect((await ask('apply', { blocklists: { set: [abuse] } })).ok).toBe(true);
    expect((await ask('apply', { rules: [allowPort, denyAbuse] })).ok).toBe(true);
    const [withListFiles, withListSets] = [files(), await sets()];
    const second = await ask('begin_safe_apply', {
      blocklists: { set: [{ name: 'abuse', entries: [unlisted] }] },
      timeout_seconds: 4,
    });
    expect(second.ok).toBe(true);
    expect(await reaches()).toEqual({ listed: 'hello', unlisted: 'timeout' });
    await rolledBack(withListFiles, withListSets);
    expect(await reaches()).toEqual({ listed: 'timeout', unlisted: 'hello' });
  }, 90_000);

  test('removing the rule and the list removes the marked blocks, byte for byte', async () => {
    const filesBefore = files();
    expect((await ask('apply', { blocklists: { set: [abuse] } })).ok).toBe(true);
    expect((await ask('apply', { rules: [allowPort, denyAbuse] })).ok).toBe(true);
    expect((await ask('apply', { rules: [allowPort] })).ok).toBe(true);
    for (const file of ['before.rules', 'before6.rules']) {
      expect(ufw.read(file)).toBe(filesBefore.find((f) => f.file === file)!.text);
    }
    expect(ufw.read('before.init')).toContain('BEGIN firewarden blocklists');
    expect(await sandbox.exec(['iptables', '-S', 'firewarden-blocklists'])).toMatchObject({ code: 1 });
    expect(await reaches()).toEqual({ listed: 'hello', unlisted: 'hello' });

    expect((await ask('apply', { blocklists: { delete: ['abuse'] } })).ok).toBe(true);
    expect(files().filter((f) => f.file !== 'user.rules' && f.file !== 'user6.rules')).toEqual(
      filesBefore.filter((f) => f.file !== 'user.rules' && f.file !== 'user6.rules'),
    );
    expect(await sets()).toBe('');
  });

  test('a hand edit inside a marked block is saved beside the file and named before the block is rewritten', async () => {
    const filesBefore = files();
    expect((await ask('apply', { blocklists: { set: [abuse] } })).ok).toBe(true);
    expect((await ask('apply', { rules: [allowPort, denyAbuse] })).ok).toBe(true);
    // Untouched blocks: a write replaces them with nothing saved.
    const untouched = await ask('apply', {
      rules: [allowPort, denyAbuse, { ...allowPort, destination_port: '2222' }],
    });
    expect(untouched.ok).toBe(true);
    expect(untouched.result.hand_edits_saved).toBeUndefined();

    const beforeRules = path.join(ufw.ufwDir, 'before.rules');
    const edited = ufw.read('before.rules').replace(blockEnd, `# admin: 203.0.113.9 too\n${blockEnd}`);
    writeFileSync(beforeRules, edited);
    const answer = await ask('apply', { rules: [allowPort] });
    expect(answer.ok).toBe(true);
    // Only the edited file is copied, as it was, with its mode; the block is gone from it.
    expect(answer.result.hand_edits_saved).toEqual([
      expect.stringMatching(/^\/etc\/ufw\/before\.rules\.firewarden-hand-edit-[0-9T-]+Z$/),
    ]);
    const copy = path.join(ufw.ufwDir, path.basename(answer.result.hand_edits_saved[0]));
    expect(readFileSync(copy, 'utf8')).toBe(edited);
    expect(statSync(copy).mode & 0o777).toBe(statSync(beforeRules).mode & 0o777);
    expect(ufw.read('before.rules')).toBe(filesBefore.find((f) => f.file === 'before.rules')!.text);
  });

  test('on ufw a list is the source of inbound rules only', async () => {
    expect((await ask('apply', { blocklists: { set: [abuse] } })).ok).toBe(true);
    const refused = await ask('apply', {
      rules: [
        { ...denyAbuse, direction: 'out' },
        { ...denyAbuse, action: 'limit' },
      ],
    });
    expect(refused.error).toMatchObject({
      code: 'FW_VALIDATION_FAILED',
      details: {
        errors: [
          { path: 'rules.0.source', code: 'unsupported_source' },
          { path: 'rules.1.action', code: 'unsupported_action' },
        ],
      },
    });
  });
});
