/**
 * @module Tests: how `firewarden serve` (the bin) serves the web UI: content types, caching
 * (hashed assets for a year, `index.html` revalidated), the SPA fallback, the UI's strict CSP (no
 * inline script) while the API keeps its own headers, and in Chromium: data that looks like
 * HTML (a rule comment, a display name) shows as text and runs nothing; every screen fits a
 * 375 px wide phone without horizontal scrolling.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { hostRules, namespaceSkipReason } from '../engine/support/netns.js';
import { requestWithHost } from '../support/raw-http.js';
import { runCli } from '../support/running-bin.js';
import { signInWithKeyboard, startUiInstallation, type UiInstallation } from './support/ui-installation.js';

const xssComment = '<img src=x onerror=window.pwned=1>';
const exampleManifest = fileURLToPath(
  new URL('../../examples/extensions/local-health/extension.yaml', import.meta.url),
);
const xssDisplayName = '<script>window.pwned=2</script><b>bold</b>';

describe.skipIf(namespaceSkipReason !== null)('web UI: serving, CSP, escaping, phone layout', () => {
  let hostBefore: string;
  let ui: UiInstallation;

  beforeAll(async () => {
    hostBefore = await hostRules();
    ui = await startUiInstallation('10.231.22', 30);
  });
  afterAll(async () => {
    await ui?.stop();
    expect(await hostRules()).toBe(hostBefore);
  });

  test('index.html: HTML, revalidated, a strict CSP and no inline script', async () => {
    const answer = await fetch(`${ui.server.url}/`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(answer.headers.get('cache-control')).toBe('no-cache');
    const csp = answer.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    expect(answer.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const html = await answer.text();
    const scripts = [...html.matchAll(/<script[^>]*>/g)].map((match) => match[0]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) expect(script).toMatch(/ src="\/assets\//);
    expect(html).not.toMatch(/<script[^>]*>[^<]/);
  });

  test('hashed assets are cached for a year with their type; a missing asset is 404', async () => {
    const html = await (await fetch(`${ui.server.url}/`)).text();
    const script = html.match(/src="(\/assets\/[^"]+\.js)"/)![1]!;
    const style = html.match(/href="(\/assets\/[^"]+\.css)"/)![1]!;
    const js = await fetch(`${ui.server.url}${script}`);
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(js.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const css = await fetch(`${ui.server.url}${style}`);
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
    const missing = await fetch(`${ui.server.url}/assets/nothing-here.js`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe('NOT_FOUND');
  });

  test('UI paths fall back to index.html; API paths, other methods and escapes do not', async () => {
    const deep = await fetch(`${ui.server.url}/restore-points`);
    expect(deep.status).toBe(200);
    expect(await deep.text()).toContain('<div id="root"></div>');
    const api = await fetch(`${ui.server.url}/api/v1/no-such-route`);
    expect(api.status).toBe(404);
    expect(api.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(((await api.json()) as { error: { code: string } }).error.code).toBe('NOT_FOUND');
    expect((await fetch(`${ui.server.url}/rules`, { method: 'POST' })).status).toBe(404);
    const outside = await fetch(`${ui.server.url}/assets/..%2f..%2f..%2fpackage.json`);
    expect(outside.status).toBe(404);
    // A foreign Host (DNS rebinding) gets the API's refusal, not the page.
    const foreign = await requestWithHost(`${ui.server.url}/`, 'evil.example');
    expect(foreign.status).toBe(403);
    expect(JSON.parse(foreign.body).error.code).toBe('HOST_NOT_ALLOWED');
  });

  test('a rule comment and a display name that look like HTML show as text and run nothing', async () => {
    const applied = await ui.admin.post('/api/v1/firewall/transactions', {
      actions: [
        {
          op: 'add',
          rule: {
            direction: 'in',
            action: 'deny',
            protocol: 'tcp',
            destination_port: '8080',
            comment: xssComment,
          },
        },
      ],
      safe_apply: false,
    });
    expect(applied.status).toBe(201);
    // Usernames cannot hold markup at all; a display name can.
    const badName = await ui.admin.post('/api/v1/users', {
      username: '<b>x</b>',
      password: 'long enough password',
      role: 'viewer',
    });
    expect(badName.status).toBe(422);
    const created = await ui.admin.post('/api/v1/users', {
      username: 'mallory',
      password: 'long enough password',
      role: 'viewer',
      display_name: xssDisplayName,
    });
    expect(created.status).toBe(201);

    const page = await ui.browser.newPage();
    await signInWithKeyboard(page, ui.server.url);
    await page.goto(`${ui.server.url}/rules`);
    await page.getByRole('cell', { name: xssComment, exact: true }).waitFor();
    expect(await page.locator('main img').count()).toBe(0);
    await page.goto(`${ui.server.url}/users`);
    await page.getByRole('cell', { name: xssDisplayName, exact: true }).waitFor();
    expect(await page.locator('main b').count()).toBe(0);
    expect(await page.evaluate('window.pwned')).toBeUndefined();
    await page.close();
  });

  test('extension widgets show their data from the widget data route as text and numbers', async () => {
    // The example extension, its http.local widget pointed at a loopback server of this test.
    const source = createServer((_request, response) => {
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ value: xssComment }));
    });
    await new Promise<void>((resolve) => source.listen(0, '127.0.0.1', resolve));
    const folder = mkdtempSync(path.join(tmpdir(), 'fw-ui-extension-'));
    const port = (source.address() as AddressInfo).port;
    writeFileSync(
      path.join(folder, 'extension.yaml'),
      readFileSync(exampleManifest, 'utf8').replace('127.0.0.1:9100', `127.0.0.1:${port}`),
    );
    try {
      const installed = await runCli(['extension', 'install', folder, '--config', ui.configFile, '--yes']);
      expect(installed.code).toBe(0);
      const page = await ui.browser.newPage();
      await signInWithKeyboard(page, ui.server.url);
      await page.goto(`${ui.server.url}/extensions`);
      const status = page.getByRole('figure', { name: 'Local service status' });
      await status.getByText(xssComment, { exact: true }).waitFor();
      expect(await status.locator('img').count()).toBe(0);
      const notifications = page.getByRole('figure', { name: 'Notifications' });
      await expect.poll(() => notifications.locator('.number').textContent()).toMatch(/^\d+$/);
      expect(await page.evaluate('window.pwned')).toBeUndefined();
      await page.close();
    } finally {
      source.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });

  test('every screen fits a 375 px wide phone without horizontal scrolling', async () => {
    const context = await ui.browser.newContext({ viewport: { width: 375, height: 740 }, isMobile: true });
    const page: Page = await context.newPage();
    await signInWithKeyboard(page, ui.server.url);
    for (const path of [
      '/',
      '/rules',
      '/rules/new',
      '/review',
      '/restore-points',
      '/users',
      '/audit',
      '/settings',
      '/notifications',
      '/extensions',
    ]) {
      await page.goto(`${ui.server.url}${path}`);
      await page.locator('main h1').waitFor();
      await page.waitForLoadState('networkidle');
      const [scroll, client] = await page.evaluate<[number, number]>(
        '[document.documentElement.scrollWidth, document.documentElement.clientWidth]',
      );
      expect({ path, scroll, client }).toEqual({ path, scroll: 375, client: 375 });
    }
    await context.close();
  });
});
