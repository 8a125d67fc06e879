/**
 * @module Tests: the Agents, Nodes and Services screens in Chromium against the `workspaced serve`
 * bin. What a user does there, each effect checked through the API: the agents screen lists what
 * `GET /agents` answers (a stand-in `claude` in a terminal) and links to its terminal; a service
 * added in the UI is registered, shows as listening, its Preview link opens the app on its own
 * `p<port>.localhost` origin, and Remove unregisters it; a port opened by the test is listed with
 * its process; a second daemon is paired both ways from the UI (code typed in, code shown once
 * and redeemed by the other daemon), its agents read, then revoked after the confirmation, which
 * the other daemon feels at once. A developer sees the refusal on Nodes; hostile names stay
 * text; at 375 px nothing scrolls sideways; no CSP violation.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  type Client,
  ownerPassword,
  type RunningDaemon,
  removeDataDir,
  setupOwner,
  startDaemon,
} from '../support/daemon.js';
import { writeFakeAgent } from '../support/fake-agent.js';
import { removeScratchDirs, scratchDir } from '../support/scratch.js';
import {
  collectCspViolations,
  desktop,
  expectPhoneLayout,
  hostile,
  launchChromium,
  phone as phoneSize,
  signIn,
} from './support/browser.js';

const appBody = 'hello from the previewed app';

const nav = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).click();

describe('operations UI: agents, nodes, services and previews', () => {
  let daemon: RunningDaemon;
  let other: RunningDaemon;
  let owner: Client;
  let ownerOther: Client;
  let browser: Browser;
  let page: Page;
  let app: http.Server;
  let appPort: number;
  let projectId: number;
  let terminalId: number;
  let cspViolations: string[];

  beforeAll(async () => {
    [daemon, other] = await Promise.all([startDaemon(), startDaemon()]);
    [owner, ownerOther] = await Promise.all([setupOwner(daemon), setupOwner(other)]);
    const folder = await scratchDir('operations-ui');
    await writeFakeAgent(folder, 'claude', 'Do you want to proceed? [y/n]');
    projectId = (await owner.post('/projects', { name: hostile, path: folder })).body.id;
    app = http.createServer((_request, response) => {
      response.setHeader('content-type', 'text/html; charset=utf-8');
      response.end(`<!doctype html><title>app</title><p>${appBody}</p>`);
    });
    await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
    appPort = (app.address() as AddressInfo).port;
    browser = await launchChromium();
    page = await browser.newPage(desktop);
    cspViolations = collectCspViolations(page);
    await signIn(page, daemon.url, 'owner', ownerPassword);
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => app?.close(resolve));
    await Promise.all([daemon?.stop(), other?.stop()]);
    await Promise.all([daemon && removeDataDir(daemon), other && removeDataDir(other)]);
    await removeScratchDirs();
  });

  test('the agents screen lists what GET /agents answers, follows state changes, links to the terminal, and shows the project name as text', async () => {
    terminalId = (await owner.post('/terminals', { project_id: projectId, shell: '/bin/sh' })).body.id;
    await owner.post(`/terminals/${terminalId}/input`, { data: './claude\r' });
    await expect
      .poll(async () => (await owner.get('/agents')).body.agents, { timeout: 10_000 })
      .toEqual([
        expect.objectContaining({ terminal_id: terminalId, agent: 'claude', state: 'needs_approval' }),
      ]);

    await nav(page, 'Agents');
    const agents = page.getByRole('list', { name: 'Agents', exact: true });
    const item = agents.getByRole('listitem').filter({ hasText: 'claude' });
    await item.getByTestId('agent-state').getByText('needs approval').waitFor();
    const answered = (await owner.get('/agents')).body.agents as { terminal_id: number; agent: string }[];
    expect(await agents.getByRole('listitem').count()).toBe(answered.length);
    for (const agent of answered)
      await agents
        .getByRole('listitem')
        .filter({ hasText: agent.agent })
        .getByRole('link', { name: `Terminal ${agent.terminal_id}` })
        .waitFor();
    await item.getByText(hostile, { exact: true }).waitFor();
    // Every agent the daemon recognizes, installed or not, as GET /agents/known says.
    const known = (await owner.get('/agents/known')).body.agents as { name: string; path: string | null }[];
    const knownList = page.getByRole('list', { name: 'Known agents' });
    await knownList.getByRole('listitem').first().waitFor();
    expect(await knownList.getByRole('listitem').allTextContents()).toEqual(
      known.map((agent) => `${agent.name} ${agent.path ?? "not on the daemon's PATH"}`),
    );
    const terminals = page.getByRole('list', { name: 'Live terminals' });
    await terminals.getByRole('link', { name: `Terminal ${terminalId}` }).waitFor();
    expect(await page.locator('main img').count()).toBe(0);
    expect(await page.title()).toBe('workspaced');

    // The agent gets its answer and works: the screen follows the agent.state event, no reload.
    await owner.post(`/terminals/${terminalId}/input`, { data: 'y\r' });
    await item.getByTestId('agent-state').getByText('working').waitFor();

    await item.getByRole('link', { name: `Terminal ${terminalId}` }).click();
    await page.getByRole('heading', { name: hostile }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/projects/${projectId}/terminals`);
  });

  test('a service added in the UI is registered and listening, its preview opens the app, and Remove unregisters it', async () => {
    const url = `http://127.0.0.1:${appPort}/${hostile}`;
    await nav(page, 'Services');
    const form = page.getByRole('form', { name: 'Add a service' });
    await form.getByLabel('Service name').fill('web');
    await form.getByLabel('Port').fill(String(appPort));
    await form.getByLabel('URL (optional)').fill(url);
    await form.getByLabel('Project (optional)').selectOption({ label: hostile });
    await form.getByRole('button', { name: 'Add service' }).click();

    const service = page.getByRole('listitem', { name: 'Service web' });
    await service.getByText('listening', { exact: true }).waitFor();
    expect((await owner.get('/services')).body.services).toEqual([
      expect.objectContaining({ name: 'web', port: appPort, url, project_id: projectId, listening: true }),
    ]);
    await service.getByRole('link', { name: url }).waitFor();
    await service.getByText(hostile, { exact: true }).waitFor();
    expect(await page.locator('main img').count()).toBe(0);
    expect(await page.title()).toBe('workspaced');

    const [preview] = await Promise.all([
      page.waitForEvent('popup'),
      service.getByRole('link', { name: 'Preview web' }).click(),
    ]);
    await preview.getByText(appBody).waitFor();
    expect(new URL(preview.url()).hostname).toBe(`p${appPort}.localhost`);
    expect(new URL(preview.url()).port).not.toBe(String(daemon.port));
    await preview.close();

    await service.getByRole('button', { name: 'Remove' }).click();
    await page.getByRole('list', { name: 'Services' }).getByText('No service registered yet.').waitFor();
    expect((await owner.get('/services')).body.services).toEqual([]);
  });

  test('a port the test listens on appears with its process, and can be previewed; the daemon is marked as itself', async () => {
    await page.getByRole('button', { name: 'Refresh' }).click();
    const ports = page.getByRole('list', { name: 'Listening ports' });
    const row = ports.getByRole('listitem').filter({ has: page.getByText(String(appPort), { exact: true }) });
    await expect
      .poll(() => row.getByTestId('port-process').textContent())
      .toMatch(new RegExp(`^pid ${process.pid} \\S`));
    const listed = (await owner.get('/services/ports')).body.ports as {
      port: number;
      address: string;
      process: { pid: number } | null;
    }[];
    expect(listed).toContainEqual(
      expect.objectContaining({
        port: appPort,
        address: '127.0.0.1',
        process: expect.objectContaining({ pid: process.pid }),
      }),
    );
    expect(await row.getByRole('link', { name: `Preview port ${appPort}` }).getAttribute('href')).toBe(
      `/api/v1/preview/${appPort}/`,
    );
    await row.getByRole('button', { name: 'Register as a service' }).click();
    expect(await page.getByRole('form', { name: 'Add a service' }).getByLabel('Port').inputValue()).toBe(
      String(appPort),
    );
    // The daemon's API port is its own: no preview offered.
    const own = ports
      .getByRole('listitem')
      .filter({ has: page.getByText(String(daemon.port), { exact: true }) });
    await own.getByText('this daemon').waitFor();
    expect(await own.getByRole('link', { name: /^Preview/ }).count()).toBe(0);
  });

  test('another daemon is paired both ways from the UI, its agents read, then revoked after a confirmation', async () => {
    // On the other daemon: register this one and show a code for it.
    const hub = (await ownerOther.post('/nodes', { name: 'hub', url: daemon.url })).body;
    const code = (await ownerOther.post(`/nodes/${hub.id}/pairing`)).body.code as string;
    const otherKey = (await ownerOther.get('/nodes/self')).body;

    await nav(page, 'Nodes');
    await page
      .getByRole('region', { name: 'This daemon' })
      .getByText((await owner.get('/nodes/self')).body.fingerprint)
      .waitFor();
    const add = page.getByRole('form', { name: 'Add a node' });
    await add.getByLabel('Node name').fill('devbox');
    await add.getByLabel('Node address').fill(other.url);
    await add.getByLabel('Its public key (optional)').fill(otherKey.public_key);
    await add.getByRole('button', { name: 'Add node' }).click();
    const node = page.getByRole('listitem', { name: 'Node devbox' });
    await node.getByTestId('node-status').getByText('pending').waitFor();

    await node.getByRole('button', { name: 'Pair with a code' }).click();
    const pair = node.getByRole('form', { name: 'Pair with devbox' });
    await pair.getByLabel('Node id shown there').fill(String(hub.id));
    await pair.getByLabel('Pairing code').fill(code.toLowerCase());
    await pair.getByRole('button', { name: 'Pair' }).click();
    await node.getByTestId('node-status').getByText('paired').waitFor();
    const [devbox] = (await owner.get('/nodes')).body.nodes;
    expect(devbox).toMatchObject({
      name: 'devbox',
      url: other.url,
      status: 'paired',
      outbound: true,
      fingerprint: otherKey.fingerprint,
    });

    await node.getByRole('button', { name: 'Show agents' }).click();
    await node
      .getByRole('list', { name: 'Agents of devbox' })
      .getByText('No agent is running on devbox.')
      .waitFor();

    // A code for the other daemon, shown once; it redeems it and reads our agents.
    await node.getByRole('button', { name: 'New pairing code' }).click();
    const box = page.getByRole('region', { name: 'Pairing code' });
    await box.getByText('It is shown only now').waitFor();
    const shown = (await box.getByTestId('pairing-code').textContent()) ?? '';
    expect(shown).toMatch(/^[0-9A-Z]{5}-[0-9A-Z]{5}$/);
    expect(await box.getByTestId('pairing-node-id').textContent()).toBe(String(devbox.id));
    expect((await owner.get('/nodes')).body.nodes[0].pairing_expires_at).not.toBeNull();
    const connected = await ownerOther.post(`/nodes/${hub.id}/connect`, {
      remote_node_id: devbox.id,
      code: shown,
    });
    expect(connected.status).toBe(200);
    expect((await owner.get('/nodes')).body.nodes[0]).toMatchObject({ inbound: true, outbound: true });
    expect((await ownerOther.get(`/nodes/${hub.id}/agents`)).body.agents).toEqual([
      expect.objectContaining({ terminal_id: terminalId, agent: 'claude' }),
    ]);
    await box.getByRole('button', { name: 'Done' }).click();
    expect(await page.getByTestId('pairing-code').count()).toBe(0);

    await node.getByRole('button', { name: 'Revoke', exact: true }).click();
    const confirm = node.getByRole('group', { name: 'Confirm revoking devbox' });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    expect((await owner.get('/nodes')).body.nodes[0].status).toBe('paired');
    await node.getByRole('button', { name: 'Revoke', exact: true }).click();
    await confirm.getByRole('button', { name: 'Yes, revoke devbox' }).click();
    await node.getByTestId('node-status').getByText('revoked').waitFor();
    // Revoked for good: no new code is offered (the daemon would answer 409 NODE_REVOKED).
    await node.getByText('add it as a new node').waitFor();
    expect(await node.getByRole('button', { name: /pairing code|Pair with/ }).count()).toBe(0);
    expect((await owner.get('/nodes')).body.nodes[0]).toMatchObject({
      status: 'revoked',
      inbound: false,
      outbound: false,
    });
    const refused = await ownerOther.get(`/nodes/${hub.id}/agents`);
    expect(refused.status).toBe(502);
    expect(refused.body.error.code).toBe('NODE_CREDENTIAL_REFUSED');
  });

  test('a developer sees why the nodes screen is closed to them, and may list and preview services but not change them', async () => {
    const password = 'developer password 123';
    expect((await owner.post('/users', { username: 'dev', password, role: 'developer' })).status).toBe(201);
    const context = await browser.newContext();
    try {
      const devPage = await context.newPage();
      await signIn(devPage, `${daemon.url}/nodes`, 'dev', password);
      await devPage.getByRole('alert').getByText('your role does not grant settings.view').waitFor();
      expect(await devPage.getByRole('form', { name: 'Add a node' }).count()).toBe(0);
      // Services: listed and previewable (terminal.create), not changeable (no services.control).
      await nav(devPage, 'Services');
      const ports = devPage.getByRole('list', { name: 'Listening ports' });
      await ports.getByRole('link', { name: `Preview port ${appPort}` }).waitFor();
      await devPage.getByText('adding or removing them takes services.control').waitFor();
      expect(await devPage.getByRole('form', { name: 'Add a service' }).count()).toBe(0);
      expect(await ports.getByRole('button', { name: 'Register as a service' }).count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  test('the pages ran without a CSP violation', () => {
    expect(cspViolations).toEqual([]);
  });

  test('on a phone (375 px) the three screens are one column without sideways scroll', async () => {
    const context = await browser.newContext(phoneSize);
    try {
      const phone = await context.newPage();
      await signIn(phone, `${daemon.url}/agents`, 'owner', ownerPassword);
      await phone
        .getByRole('list', { name: 'Agents', exact: true })
        .getByText('claude', { exact: true })
        .waitFor();
      await expectPhoneLayout(phone);
      expect((await owner.post('/nodes', { name: 'laptop', url: other.url })).status).toBe(201);
      await nav(phone, 'Nodes');
      await phone.getByRole('listitem', { name: 'Node laptop' }).waitFor();
      await phone
        .getByRole('listitem', { name: 'Node laptop' })
        .getByRole('button', { name: /New pairing code/ })
        .click();
      await phone.getByTestId('pairing-code').waitFor();
      await expectPhoneLayout(phone);
      await nav(phone, 'Services');
      await phone.getByRole('list', { name: 'Listening ports' }).getByRole('listitem').first().waitFor();
      await phone.getByRole('region', { name: 'Host' }).waitFor();
      await expectPhoneLayout(phone);
    } finally {
      await context.close();
    }
  });
});
