/**
 * @module Tests: nodes and pairing between two real daemons started from the bin on loopback.
 * B shows a one-time code for A; A connects with it and reads B's agents through
 * `GET /nodes/{id}/agents`; the code is single use, limited to 5 guesses and expires; revoking
 * on B stops A's credential at once; neither secret reaches the audit trail or the log; a node
 * that redirects, answers too much or is down gives a clear error.
 */
import { createPublicKey, generateKeyPairSync, randomBytes, sign, verify } from 'node:crypto';
import { statSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  Client,
  type RunningDaemon,
  removeDataDir,
  setupOwner,
  startDaemon,
  userClient,
} from './support/daemon.js';
import { writeFakeAgent } from './support/fake-agent.js';
import { removeScratchDirs, scratchDir } from './support/scratch.js';

let a: RunningDaemon;
let b: RunningDaemon;
let ownerA: Client;
let ownerB: Client;
const codePattern = /^[0-9A-HJKMNP-TV-Z]{5}-[0-9A-HJKMNP-TV-Z]{5}$/;
const secretsSeen: string[] = [];

beforeAll(async () => {
  [a, b] = await Promise.all([startDaemon(), startDaemon()]);
  [ownerA, ownerB] = await Promise.all([setupOwner(a), setupOwner(b)]);
});

afterAll(async () => {
  expect(await a.stop()).toBe(0);
  expect(await b.stop()).toBe(0);
  await removeDataDir(a);
  await removeDataDir(b);
  await removeScratchDirs();
});

/** B registers A and opens a pairing code for it; A registers B. */
async function prepare(name: string) {
  const onB = (await ownerB.post('/nodes', { name: `${name}-a`, url: a.url })).body;
  const onA = (await ownerA.post('/nodes', { name: `${name}-b`, url: `${b.url}/` })).body;
  const pairing = await ownerB.post(`/nodes/${onB.id}/pairing`);
  expect(pairing.status).toBe(201);
  secretsSeen.push(pairing.body.code);
  return { onA, onB, code: pairing.body.code as string };
}

async function waitForAgents(nodeId: number) {
  for (let attempt = 0; attempt < 100; attempt++) {
    const answer = await ownerA.get(`/nodes/${nodeId}/agents`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    if (answer.body.agents.length > 0) return answer.body;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the node never listed an agent');
}

describe('pairing two daemons', () => {
  test('A pairs with the code B showed and lists the agents running on B', async () => {
    const { onA, onB, code } = await prepare('main');
    expect(onA).toMatchObject({ status: 'pending', url: b.url, outbound: false, inbound: false });
    expect(code).toMatch(codePattern);
    const nodesOnB = (await ownerB.get('/nodes')).body.nodes;
    const expires = Date.parse(nodesOnB.find((n: { id: number }) => n.id === onB.id).pairing_expires_at);
    expect(expires - Date.now()).toBeGreaterThan(9 * 60_000);
    expect(expires - Date.now()).toBeLessThanOrEqual(10 * 60_000);

    // Typed by a person: lower case, no dash.
    const connected = await ownerA.post(`/nodes/${onA.id}/connect`, {
      remote_node_id: onB.id,
      code: code.toLowerCase().replace('-', ''),
    });
    expect(connected.status, JSON.stringify(connected.body)).toBe(200);
    expect(connected.body).toMatchObject({ status: 'paired', outbound: true, inbound: false });
    const bSide = (await ownerB.get('/nodes')).body.nodes.find((n: { id: number }) => n.id === onB.id);
    expect(bSide).toMatchObject({
      status: 'paired',
      inbound: true,
      outbound: false,
      pairing_expires_at: null,
    });

    expect((await ownerA.get(`/nodes/${onA.id}/agents`)).body).toEqual({ node_id: onA.id, agents: [] });
    const dir = await scratchDir('node-agents');
    const agent = await writeFakeAgent(dir, 'codex', 'Do you want to proceed? [y/n]');
    const project = (await ownerB.post('/projects', { name: 'remote', path: dir })).body.id;
    const terminal = (await ownerB.post('/terminals', { project_id: project, shell: '/bin/sh' })).body.id;
    await ownerB.post(`/terminals/${terminal}/input`, { data: `${agent}\r` });
    const listed = await waitForAgents(onA.id);
    expect(listed.agents).toEqual([
      expect.objectContaining({ terminal_id: terminal, project_id: project, agent: 'codex' }),
    ]);
    const seen = (await ownerB.get('/nodes')).body.nodes.find((n: { id: number }) => n.id === onB.id);
    expect(Date.parse(seen.last_seen_at)).not.toBeNaN();

    // The code was used once.
    const again = await ownerA.post(`/nodes/${onA.id}/connect`, { remote_node_id: onB.id, code });
    expect(again.status).toBe(422);
    expect(again.body.error).toMatchObject({ code: 'PAIRING_REJECTED', remote_code: 'PAIRING_CODE_INVALID' });
    await ownerB.post(`/terminals/${terminal}/terminate`);
  });

  test('revoking on B stops the credential at once', async () => {
    const { onA, onB, code } = await prepare('revoked');
    await ownerA.post(`/nodes/${onA.id}/connect`, { remote_node_id: onB.id, code });
    expect((await ownerA.get(`/nodes/${onA.id}/agents`)).status).toBe(200);
    const revoked = await ownerB.post(`/nodes/${onB.id}/revoke`);
    expect(revoked.body).toMatchObject({ status: 'revoked', inbound: false });
    const refused = await ownerA.get(`/nodes/${onA.id}/agents`);
    expect(refused.status).toBe(502);
    expect(refused.body.error).toMatchObject({
      code: 'NODE_CREDENTIAL_REFUSED',
      remote_code: 'NODE_CREDENTIAL_INVALID',
    });
    // Revoked on A: A no longer holds the credential either.
    expect((await ownerA.post(`/nodes/${onA.id}/revoke`)).body).toMatchObject({
      status: 'revoked',
      outbound: false,
    });
    const unpaired = await ownerA.get(`/nodes/${onA.id}/agents`);
    expect(unpaired.status).toBe(409);
    expect(unpaired.body.error.code).toBe('NODE_NOT_PAIRED');
  });

  test('a revoked node gets no new pairing code and cannot connect again: that needs a new registration', async () => {
    const { onA, onB, code } = await prepare('gone');
    expect((await ownerB.post(`/nodes/${onB.id}/revoke`)).body.status).toBe('revoked');
    const reopened = await ownerB.post(`/nodes/${onB.id}/pairing`);
    expect(reopened.status).toBe(409);
    expect(reopened.body.error.code).toBe('NODE_REVOKED');
    expect(
      (await ownerB.get('/nodes')).body.nodes.find((n: { id: number }) => n.id === onB.id),
    ).toMatchObject({ status: 'revoked', pairing_expires_at: null });
    // On A too: a revoked record never holds a credential again.
    expect((await ownerA.post(`/nodes/${onA.id}/revoke`)).body.status).toBe('revoked');
    const reconnect = await ownerA.post(`/nodes/${onA.id}/connect`, { remote_node_id: onB.id, code });
    expect(reconnect.status).toBe(409);
    expect(reconnect.body.error.code).toBe('NODE_REVOKED');
    // A new registration pairs as the first one did.
    const fresh = await prepare('gone-again');
    const paired = await ownerA.post(`/nodes/${fresh.onA.id}/connect`, {
      remote_node_id: fresh.onB.id,
      code: fresh.code,
    });
    expect(paired.status, JSON.stringify(paired.body)).toBe(200);
    expect(paired.body.status).toBe('paired');
  });
});

describe('node identity', () => {
  test("each daemon has an Ed25519 key in its data dir (0600); A learns B's key when pairing", async () => {
    const self = (await ownerB.get('/nodes/self')).body;
    expect(self.public_key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(self.fingerprint).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);
    expect(self.public_key).not.toBe((await ownerA.get('/nodes/self')).body.public_key);
    expect(statSync(path.join(b.dataDir, 'node-identity.pem')).mode & 0o777).toBe(0o600);
    const { onA, onB, code } = await prepare('learnt');
    expect(onA).toMatchObject({ public_key: null, fingerprint: null });
    const paired = await ownerA.post(`/nodes/${onA.id}/connect`, { remote_node_id: onB.id, code });
    expect(paired.body).toMatchObject({ public_key: self.public_key, fingerprint: self.fingerprint });
  });

  test('a node registered with its key pairs; one registered with another key is refused', async () => {
    const bKey = (await ownerB.get('/nodes/self')).body.public_key;
    const aKey = (await ownerA.get('/nodes/self')).body.public_key;
    const right = await prepare('keyed');
    const keyed = (await ownerA.post('/nodes', { name: 'keyed-b2', url: b.url, public_key: bKey })).body;
    expect(keyed.fingerprint).toMatch(/^SHA256:/);
    const ok = await ownerA.post(`/nodes/${keyed.id}/connect`, {
      remote_node_id: right.onB.id,
      code: right.code,
    });
    expect(ok.body).toMatchObject({ status: 'paired', outbound: true });

    const wrong = await prepare('impostor');
    const expectsA = (await ownerA.post('/nodes', { name: 'impostor-b2', url: b.url, public_key: aKey }))
      .body;
    const refused = await ownerA.post(`/nodes/${expectsA.id}/connect`, {
      remote_node_id: wrong.onB.id,
      code: wrong.code,
    });
    expect(refused.status).toBe(502);
    expect(refused.body.error.code).toBe('NODE_IDENTITY_MISMATCH');
    const after = (await ownerA.get('/nodes')).body.nodes.find((n: { id: number }) => n.id === expectsA.id);
    expect(after).toMatchObject({ status: 'pending', outbound: false, public_key: aKey });
    for (const publicKey of ['short', 'x'.repeat(43), `${'A'.repeat(42)}B`])
      expect(
        (await ownerA.post('/nodes', { name: 'badkey', url: b.url, public_key: publicKey })).status,
      ).toBe(400);
  });
});

describe('the code and the credential (B seen as a node would see it)', () => {
  const redeem = (nodeId: number, code: string, challenge = randomBytes(32).toString('base64url')) =>
    new Client(b.url).post('/nodes/pair', { node_id: nodeId, code, challenge });

  test('five wrong guesses spend the code: the right one is refused after them', async () => {
    const { onB, code } = await prepare('guessed');
    const wrong = code.startsWith('0') ? `1${code.slice(1)}` : `0${code.slice(1)}`;
    for (let guess = 0; guess < 5; guess++) {
      const answer = await redeem(onB.id, wrong);
      expect(answer.status).toBe(401);
      expect(answer.body.error.code).toBe('PAIRING_CODE_INVALID');
    }
    expect((await redeem(onB.id, code)).status).toBe(401);
    // A new code starts over.
    const fresh = (await ownerB.post(`/nodes/${onB.id}/pairing`)).body.code;
    secretsSeen.push(fresh);
    const challenge = randomBytes(32).toString('base64url');
    const paired = await redeem(onB.id, fresh, challenge);
    expect(paired.status).toBe(201);
    expect(paired.body.credential).toMatch(/^wsn_[A-Za-z0-9_-]{43}$/);
    secretsSeen.push(paired.body.credential);
    // Signed by B's key over the challenge and the credential (Ed25519).
    const self = (await ownerB.get('/nodes/self')).body;
    expect(paired.body.public_key).toBe(self.public_key);
    const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: self.public_key }, format: 'jwk' });
    const signed = Buffer.from(`workspaced node pairing v1\n${challenge}\n${paired.body.credential}`);
    expect(verify(null, signed, key, Buffer.from(paired.body.signature, 'base64url'))).toBe(true);
  });

  test('concurrent guesses never exceed five', async () => {
    const { onB, code } = await prepare('raced');
    const wrong = code.startsWith('0') ? `1${code.slice(1)}` : `0${code.slice(1)}`;
    await Promise.all(Array.from({ length: 12 }, () => redeem(onB.id, wrong)));
    expect((await redeem(onB.id, code)).status).toBe(401);
  });

  test('an expired code is refused', async () => {
    const { onB, code } = await prepare('expired');
    const sqlite = new Database(path.join(b.dataDir, 'workspaced.db'));
    sqlite.pragma('busy_timeout = 5000');
    sqlite.prepare('UPDATE nodes SET pairing_expires_at = ? WHERE id = ?').run(Date.now() - 1, onB.id);
    sqlite.close();
    expect((await redeem(onB.id, code)).status).toBe(401);
  });

  test('unknown nodes and malformed bodies get the same refusal or a 400', async () => {
    expect((await redeem(999_999, 'ABCDE-FGHJK')).status).toBe(401);
    for (const body of [
      {},
      { node_id: 'x', code: 'a' },
      { node_id: 1, code: 'x'.repeat(33) },
      { node_id: 0, code: 'a' },
    ]) {
      const answer = await new Client(b.url).post('/nodes/pair', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
    }
  });

  test('a credential opens GET /agents only; forged and malformed ones are refused', async () => {
    const { onB, code } = await prepare('scoped');
    const credential = (await redeem(onB.id, code)).body.credential as string;
    secretsSeen.push(credential);
    const bearer = (token: string, route: string) =>
      fetch(`${b.url}/api/v1${route}`, { headers: { authorization: `Bearer ${token}` } });
    expect((await bearer(credential, '/agents')).status).toBe(200);
    for (const route of ['/projects', '/nodes', '/services/ports', '/me']) {
      const answer = await bearer(credential, route);
      expect(answer.status, route).toBe(401);
    }
    const forged = `wsn_${'A'.repeat(43)}`;
    const refused = await bearer(forged, '/agents');
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe(
      'NODE_CREDENTIAL_INVALID',
    );
    expect((await bearer('not-a-credential', '/agents')).status).toBe(401);
  });

  test('neither codes nor credentials reach the audit trail or the log; every change is audited', async () => {
    const entries = (await ownerB.get('/audit?limit=500')).body.entries;
    const trail = JSON.stringify(entries);
    const log = b.stderr() + b.stdout() + a.stderr() + a.stdout();
    for (const secret of secretsSeen) {
      expect(trail).not.toContain(secret);
      expect(trail).not.toContain(secret.replace('-', ''));
      expect(log).not.toContain(secret);
    }
    const actions = entries.map(
      (entry: { action: string; outcome: string }) => `${entry.action} ${entry.outcome}`,
    );
    for (const action of [
      'POST /nodes success',
      'POST /nodes/:id/pairing success',
      'POST /nodes/:id/revoke success',
      'POST /nodes/pair success',
      'POST /nodes/pair denied',
    ])
      expect(actions).toContain(action);
    const aActions = (await ownerA.get('/audit?limit=500')).body.entries.map(
      (e: { action: string }) => e.action,
    );
    expect(aActions).toContain('POST /nodes/:id/connect');
  });
});

describe('registration and misbehaving nodes', () => {
  test('names are unique and URLs must be a bare http(s) origin', async () => {
    expect((await ownerA.post('/nodes', { name: 'unique', url: 'http://127.0.0.1:1' })).status).toBe(201);
    const duplicate = await ownerA.post('/nodes', { name: 'unique', url: 'http://127.0.0.1:2' });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.error.code).toBe('NODE_NAME_TAKEN');
    for (const url of [
      'ftp://127.0.0.1/',
      'http://user:pw@127.0.0.1/',
      'http://127.0.0.1/api',
      'http://127.0.0.1/?x=1',
      'http://127.0.0.1/#x',
      'file:///etc/passwd',
      'not a url',
    ]) {
      const answer = await ownerA.post('/nodes', { name: 'bad', url });
      expect(answer.status, url).toBe(400);
      expect(answer.body.error.issues[0].path).toBe('url');
    }
    for (const name of ['', '-x', 'a b', 'x'.repeat(65)])
      expect((await ownerA.post('/nodes', { name, url: 'http://127.0.0.1:1' })).status, name).toBe(400);
    expect((await ownerA.post('/nodes/999999/pairing')).status).toBe(404);
    expect((await ownerA.get('/nodes/abc/agents')).status).toBe(404);
  });

  test('a node that is down, redirects, answers too much or signs wrongly gives a clear error', async () => {
    let mode: 'forged' | 'redirect' | 'large' = 'forged';
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const fakeKey = publicKey.export({ format: 'jwk' }).x!;
    const fake = http.createServer(async (request, response) => {
      if (request.url === '/api/v1/nodes/pair') {
        let body = '';
        for await (const chunk of request) body += chunk;
        const credential = `wsn_${'B'.repeat(43)}`;
        // Forged: signs another credential than the one it hands over.
        const signed = `${JSON.parse(body).challenge}\n${mode === 'forged' ? `wsn_${'C'.repeat(43)}` : credential}`;
        const signature = sign(null, Buffer.from(`workspaced node pairing v1\n${signed}`), privateKey);
        response.writeHead(201, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({
            node_id: 1,
            credential,
            public_key: fakeKey,
            signature: signature.toString('base64url'),
          }),
        );
      } else if (mode === 'redirect') {
        response.writeHead(302, { location: `${a.url}/api/v1/agents` });
        response.end();
      } else {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ agents: [], padding: 'x'.repeat(2 * 1024 * 1024) }));
      }
    });
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
    try {
      const node = (await ownerA.post('/nodes', { name: 'hostile', url })).body;
      const forged = await ownerA.post(`/nodes/${node.id}/connect`, { remote_node_id: 1, code: 'x' });
      expect(forged.status).toBe(502);
      expect(forged.body.error.code).toBe('NODE_IDENTITY_MISMATCH');
      expect((await ownerA.get(`/nodes/${node.id}/agents`)).body.error.code).toBe('NODE_NOT_PAIRED');
      mode = 'redirect';
      const connected = await ownerA.post(`/nodes/${node.id}/connect`, { remote_node_id: 1, code: 'x' });
      expect(connected.body).toMatchObject({ status: 'paired', public_key: fakeKey });
      const redirected = await ownerA.get(`/nodes/${node.id}/agents`);
      expect(redirected.status).toBe(502);
      expect(redirected.body.error.code).toBe('NODE_REDIRECT_REFUSED');
      mode = 'large';
      const large = await ownerA.get(`/nodes/${node.id}/agents`);
      expect(large.status).toBe(502);
      expect(large.body.error.code).toBe('NODE_ANSWER_TOO_LARGE');
    } finally {
      await new Promise((resolve) => fake.close(resolve));
    }
    const down = (await ownerA.post('/nodes', { name: 'down', url })).body;
    const refused = await ownerA.post(`/nodes/${down.id}/connect`, {
      remote_node_id: 1,
      code: 'ABCDE-FGHJK',
    });
    expect(refused.status).toBe(502);
    expect(refused.body.error.code).toBe('NODE_UNREACHABLE');
  });

  test('only owners and admins manage nodes', async () => {
    const operator = (await userClient(a, ownerA, 'node-operator', 'operator')).client;
    expect((await operator.get('/nodes')).status).toBe(403);
    expect((await operator.post('/nodes', { name: 'op', url: 'http://127.0.0.1:1' })).status).toBe(403);
    const admin = (await userClient(a, ownerA, 'node-admin', 'admin')).client;
    expect((await admin.post('/nodes', { name: 'by-admin', url: 'http://127.0.0.1:1' })).status).toBe(201);
  });
});
