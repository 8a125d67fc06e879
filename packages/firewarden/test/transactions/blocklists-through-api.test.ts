/**
 * @module Tests: blocklists end to end through the bins, on real iptables and ipset in a network
 * namespace joined to a client namespace by a veth pair. A list PUT over HTTP is in the kernel
 * (`ipset save`); a rule naming it drops the client's packets; an unconfirmed PUT rolls the set
 * back; a restore point brings a list back; bad entries, unknown lists, lists in use, lockouts
 * and bounds are refused with their codes; the CLI sets lists from a file and from stdin. The
 * host's rules and sets are compared before and after.
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { eventually } from '../backends/support/sandbox.js';
import { exec, hostRules, namespaceSkipReason } from '../engine/support/netns.js';
import { ApiClient } from '../support/api-client.js';
import { adminPassword } from '../support/installation.js';
import {
  type CliResult,
  childEnvironment,
  cliPath,
  type RunningServer,
  runCli,
  startServer,
} from '../support/running-bin.js';
import { startVethAgent, type VethAgent } from './support/veth-agent.js';
import type { VethPair } from './support/veth-pair.js';

const subnet = '10.231.31';
const port = 8080;
const client = `${subnet}.1`;
const timeoutSeconds = 5;
/** Tests that run the CLI several times: each run starts Node, slow on a loaded machine. */
const cliTestTimeout = 120_000;

const hostSets = async () => (await exec(['ipset', 'save'])).stdout;

describe.skipIf(namespaceSkipReason !== null)('blocklists through the API and the CLI', () => {
  let hostBefore: string;
  let hostSetsBefore: string;
  let setUp: VethAgent;
  let pair: VethPair;
  let folder: string;
  let server: RunningServer;
  let admin: ApiClient;
  let config: string[];

  /** The entries of one of the managed namespace's sets, sorted; null when it does not exist. */
  const kernelSet = async (set: string): Promise<string[] | null> => {
    const saved = await pair.managed.exec(['ipset', 'save', set]);
    if (saved.code !== 0) return null;
    return saved.stdout
      .split('\n')
      .filter((line) => line.startsWith('add '))
      .map((line) => line.split(' ')[2]!)
      .sort();
  };
  const put = (name: string, body: object) => admin.put(`/api/v1/firewall/blocklists/${name}`, body);
  const addRule = (rule: object) =>
    admin.post('/api/v1/firewall/transactions', { actions: [{ op: 'add', rule }], safe_apply: false });

  beforeAll(async () => {
    hostBefore = await hostRules();
    hostSetsBefore = await hostSets();
    setUp = await startVethAgent(subnet, port, timeoutSeconds);
    ({ pair, folder } = setUp);
    config = ['--config', setUp.installation.configFile];
    server = await startServer(config);
    admin = new ApiClient(server.url);
    expect((await admin.login('admin', adminPassword)).status).toBe(200);
  });
  afterAll(async () => {
    await server?.stop();
    expect(await setUp?.remove()).toBe(0);
    expect(await hostRules()).toBe(hostBefore);
    expect(await hostSets()).toBe(hostSetsBefore);
  });

  test('bad entries are listed by path and nothing reaches the kernel', async () => {
    const answer = await put('abuse', { entries: ['192.0.2.1', '192.0.2.300', '2001:db8::/129', 42] });
    expect(answer.status).toBe(422);
    expect(answer.body.error.code).toBe('FW_VALIDATION_FAILED');
    expect(answer.body.error.details.errors.map((e: { path: string }) => e.path)).toEqual([
      'entries.1',
      'entries.2',
      'entries.3',
    ]);
    expect((await put('Not-A-Name', { entries: [] })).body.error.code).toBe('FW_BLOCKLIST_NOT_FOUND');
    expect((await put('abuse', { entries: [], extra: 1 })).status).toBe(400);
    expect(await kernelSet('fw4-abuse')).toBeNull();
  });

  test('a PUT is a transaction: the merged list is in the kernel and a rule naming it drops its sources', async () => {
    const answer = await put('abuse', {
      entries: ['203.0.113.0/25', '203.0.113.128/25', client, client, '2001:db8::1'],
      comment: 'abuse feed',
      safe_apply: false,
    });
    expect(answer.status).toBe(200);
    expect(answer.body.data.transaction).toMatchObject({
      state: 'applied',
      actions: [{ op: 'set_blocklist', name: 'abuse', entries: 3, received: 5 }],
    });
    expect(answer.body.data.blocklist).toEqual({
      name: 'abuse',
      family: 'both',
      comment: 'abuse feed',
      entries: 3,
      received: 5,
    });
    expect(await kernelSet('fw4-abuse')).toEqual([client, '203.0.113.0/24']);
    expect(await kernelSet('fw6-abuse')).toEqual(['2001:db8::1']);
    expect((await admin.get('/api/v1/firewall/blocklists')).body.data.blocklists).toEqual([
      { name: 'abuse', family: 'both', comment: 'abuse feed', entries: 3 },
    ]);
    expect((await admin.get('/api/v1/firewall/blocklists/abuse')).body.data.blocklist).toMatchObject({
      entries: expect.arrayContaining([client, '203.0.113.0/24', '2001:db8::1']),
      count: 3,
    });
    expect((await admin.get('/api/v1/firewall/blocklists/missing')).status).toBe(404);

    expect(await pair.knock()).toBe('hello');
    const rule = await addRule({
      direction: 'in',
      action: 'deny',
      protocol: 'tcp',
      destination_port: String(port),
      source: '@abuse',
    });
    expect(rule.status).toBe(201);
    expect((await pair.managed.exec(['iptables-save', '-t', 'filter'])).stdout).toContain(
      '-A FIREWARDEN-INPUT -p tcp -m set --match-set fw4-abuse src -m tcp --dport 8080 -j DROP',
    );
    expect(await pair.knock()).toBe('timeout');
    expect((await admin.get('/api/v1/firewall/rules')).body.data.rules).toMatchObject([{ source: '@abuse' }]);
  });

  test('rules may only name lists that exist; a list in use cannot be deleted', async () => {
    const unknown = await addRule({ direction: 'in', action: 'deny', protocol: 'any', source: '@missing' });
    expect(unknown.status).toBe(422);
    expect(unknown.body.error.details.errors).toMatchObject([
      { code: 'unknown_blocklist', path: 'rules.1.source' },
    ]);
    const inUse = await admin.request('DELETE', '/api/v1/firewall/blocklists/abuse');
    expect(inUse.status).toBe(409);
    expect(inUse.body.error).toMatchObject({
      code: 'FW_BLOCKLIST_IN_USE',
      details: { rules: [{ position: 1, rule: { source: '@abuse' } }] },
    });
    expect(await kernelSet('fw4-abuse')).not.toBeNull();
  });

  test('an unconfirmed PUT rolls the set back at its deadline', async () => {
    const answer = await put('abuse', { entries: ['203.0.113.0/24'] });
    expect(answer.body.data.transaction.state).toBe('pending');
    expect(await kernelSet('fw4-abuse')).toEqual(['203.0.113.0/24']);
    expect(await pair.knock()).toBe('hello');
    await eventually(
      async () => (await kernelSet('fw4-abuse'))?.includes(client) === true,
      'the previous entries back',
    );
    expect(await pair.knock()).toBe('timeout');
    const id = answer.body.data.transaction.id;
    await eventually(
      async () =>
        (await admin.get(`/api/v1/firewall/transactions/${id}`)).body.data.transaction.state ===
        'rolled_back',
      'the transaction recorded as rolled back',
    );
  });

  test(
    "a list that comes to hold this session's address while a rule drops it is a lockout",
    async () => {
      expect(
        (await addRule({ direction: 'in', action: 'deny', protocol: 'any', source: '@abuse' })).status,
      ).toBe(201);
      const before = await kernelSet('fw4-abuse');
      const refused = await put('abuse', { entries: [client, '127.0.0.0/8'], safe_apply: false });
      expect(refused.status).toBe(409);
      expect(refused.body.error.code).toBe('FW_LOCKOUT_RISK');
      expect(refused.body.error.details.conflicts.map((c: { code: string }) => c.code)).toEqual([
        'SSH_LOCKOUT_RISK',
        'MANAGEMENT_PORT_LOCKOUT',
      ]);
      expect(await kernelSet('fw4-abuse')).toEqual(before);
      // The same over SSH through the CLI, for the SSH peer's address.
      const file = path.join(folder, 'lockout.txt');
      writeFileSync(file, '127.0.0.1\n');
      const cli = await runCli(['blocklist', 'set', 'abuse', '--file', file, '--json', ...config], {
        SSH_CONNECTION: '127.0.0.1 50000 127.0.0.1 22',
      });
      expect(cli.code).toBe(1);
      expect(JSON.parse(cli.stdout).error.code).toBe('FW_LOCKOUT_RISK');
      expect(await kernelSet('fw4-abuse')).toEqual(before);
    },
    cliTestTimeout,
  );

  test('a restore point holds the lists and brings them back', async () => {
    const point = await admin.post('/api/v1/firewall/snapshots', { name: 'with abuse' });
    expect(point.status).toBe(201);
    const atPoint = await kernelSet('fw4-abuse');
    expect((await put('abuse', { entries: ['198.51.100.0/24'], safe_apply: false })).status).toBe(200);
    expect(await kernelSet('fw4-abuse')).toEqual(['198.51.100.0/24']);
    const restored = await admin.post(`/api/v1/firewall/snapshots/${point.body.data.snapshot.id}/restore`);
    expect(restored.status).toBe(200);
    expect(await kernelSet('fw4-abuse')).toEqual(atPoint);
  });

  test(
    'more entries than the bound is a 413 with the limit',
    async () => {
      const entries = Array.from(
        { length: 1_000_001 },
        (_, i) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
      );
      const answer = await put('huge', { entries });
      expect(answer.status).toBe(413);
      expect(answer.body.error).toMatchObject({
        code: 'FW_BLOCKLIST_TOO_LARGE',
        details: { limit: 1_000_000, unit: 'entries', received: 1_000_001 },
      });
      expect(await kernelSet('fw4-huge')).toBeNull();
    },
    cliTestTimeout,
  );

  test(
    'the CLI sets a list from a file and from stdin, lists, shows and deletes it',
    async () => {
      const file = path.join(folder, 'feed.txt');
      writeFileSync(file, '# a feed\n\n192.0.2.0/25   # first half\n192.0.2.128/25\n 198.51.100.7 \n');
      const set = await runCli([
        'blocklist',
        'set',
        'feed',
        '--file',
        file,
        '--comment',
        'a feed',
        ...config,
      ]);
      expect(set).toMatchObject({ code: 0 });
      expect(set.stdout).toContain('blocklist feed: 2 entries (3 received');
      expect(await kernelSet('fw4-feed')).toEqual(['192.0.2.0/24', '198.51.100.7']);

      const fromStdin = await new Promise<CliResult>((resolve) => {
        const child = execFile(
          process.execPath,
          [cliPath, 'blocklist', 'set', 'feed', '--file', '-', '--json', ...config],
          { env: childEnvironment() },
          (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
        );
        child.stdin!.end('203.0.113.9\n# nothing else\n');
      });
      expect(fromStdin.code).toBe(0);
      expect(JSON.parse(fromStdin.stdout)).toMatchObject({
        ok: true,
        blocklist: { name: 'feed', entries: 1 },
      });
      expect(await kernelSet('fw4-feed')).toEqual(['203.0.113.9']);

      const listed = await runCli(['blocklist', 'list', '--json', ...config]);
      expect(JSON.parse(listed.stdout).blocklists).toContainEqual({
        name: 'feed',
        family: 'both',
        comment: null,
        entries: 1,
      });
      const shown = await runCli(['blocklist', 'show', 'feed', ...config]);
      expect(shown.stdout.split('\n').slice(1, -1)).toEqual(['203.0.113.9']);

      writeFileSync(file, '192.0.2.1\nnot-an-address\n');
      const bad = await runCli(['blocklist', 'set', 'feed', '--file', file, ...config]);
      expect(bad.code).toBe(1);
      expect(bad.stderr).toContain('entry 2 (not-an-address)');
      expect(await kernelSet('fw4-feed')).toEqual(['203.0.113.9']);

      expect((await runCli(['blocklist', 'delete', 'feed', ...config])).code).toBe(0);
      expect(await kernelSet('fw4-feed')).toBeNull();
      const inUse = await runCli(['blocklist', 'delete', 'abuse', '--json', ...config]);
      expect(JSON.parse(inUse.stdout).error.code).toBe('FW_BLOCKLIST_IN_USE');
    },
    cliTestTimeout,
  );
});
