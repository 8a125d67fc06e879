/**
 * @module Tests: the shared `useLoad`, `Link` and `index.html` in Chromium, built by the shared
 * Vite config (`uiViteConfig`) and served under the products' strict CSP: the newest load's answer
 * is the one shown even when an older one arrives last, and a Ctrl/Cmd/Shift-click on a link is
 * left to the browser while a plain click navigates in the page.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { build, mergeConfig } from 'vite';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { uiViteConfig } from '../src/vite-config.js';

const strictCsp =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'";

let folder: string;
let server: Server;
let origin: string;
let browser: Browser;
let page: Page;
const violations: string[] = [];

beforeAll(async () => {
  folder = mkdtempSync(path.join(tmpdir(), 'web-ui-harness-'));
  const root = path.join(import.meta.dirname, 'harness');
  await build(
    mergeConfig(uiViteConfig({ root, title: 'harness', apiTarget: 'http://127.0.0.1:9' }), {
      configFile: false,
      logLevel: 'warn',
      build: { outDir: folder },
    }),
  );
  server = createServer((request, response) => {
    const asset = request.url?.startsWith('/assets/') ? request.url : '/index.html';
    const type = asset.endsWith('.js')
      ? 'text/javascript'
      : asset.endsWith('.css')
        ? 'text/css'
        : 'text/html';
    response.writeHead(200, { 'content-type': type, 'content-security-policy': strictCsp });
    response.end(readFileSync(path.join(folder, path.normalize(asset))));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  server?.close();
  rmSync(folder, { recursive: true, force: true });
});

beforeEach(async () => {
  page = await browser.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error') violations.push(message.text());
  });
  await page.goto(`${origin}/`);
  await page.getByTestId('path').waitFor();
});

const shown = (testId: string) => page.getByTestId(testId).textContent();

describe('useLoad', () => {
  test('an older answer arriving after a newer one is dropped', async () => {
    await page.getByRole('button', { name: 'Second filter' }).click();
    await page.evaluate(() =>
      (window as never as { settle: (k: string, v: string) => void }).settle('second', 'B'),
    );
    await expect.poll(() => shown('data')).toBe('B');
    await page.evaluate(() =>
      (window as never as { settle: (k: string, v: string) => void }).settle('first', 'A'),
    );
    // Let the stale answer reach the page (a macrotask round trip) before looking again.
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(await shown('data')).toBe('B');
  });

  test('a failure of an older load does not replace the newer answer, a reload shows its own failure', async () => {
    await page.getByRole('button', { name: 'Second filter' }).click();
    await page.evaluate(() =>
      (window as never as { settle: (k: string, v: string) => void }).settle('second', 'B'),
    );
    await expect.poll(() => shown('data')).toBe('B');
    await page.evaluate(() =>
      (window as never as { fail: (k: string, m: string) => void }).fail('first', 'old'),
    );
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(await shown('error')).toBe('no error');
    await page.getByRole('button', { name: 'Reload' }).click();
    await page.evaluate(() =>
      (window as never as { fail: (k: string, m: string) => void }).fail('second', 'gone'),
    );
    await expect.poll(() => shown('error')).toBe('gone');
    expect(await shown('data')).toBe('B');
  });
});

describe('Link', () => {
  const link = () => page.getByRole('link', { name: 'Next screen' });
  const clicks = () => page.evaluate(() => (window as never as { clicks: boolean[] }).clicks);

  test('a plain click navigates in the page and marks the link current', async () => {
    expect(await link().getAttribute('href')).toBe('/next');
    await link().click();
    await expect.poll(() => shown('path')).toBe('/next');
    expect(await page.evaluate(() => window.location.pathname)).toBe('/next');
    expect(await link().getAttribute('aria-current')).toBe('page');
    expect(await clicks()).toEqual([true]);
  });

  for (const modifier of ['Control', 'Meta', 'Shift', 'Alt'] as const) {
    test(`a ${modifier}-click is left to the browser`, async () => {
      await link().click({ modifiers: [modifier] });
      await expect.poll(clicks).toEqual([false]);
      expect(await shown('path')).toBe('/');
      expect(await page.evaluate(() => window.location.pathname)).toBe('/');
    });
  }
});

test('the shared index.html loads under the strict CSP without a violation', async () => {
  expect(await page.title()).toBe('harness');
  expect(violations).toEqual([]);
});
