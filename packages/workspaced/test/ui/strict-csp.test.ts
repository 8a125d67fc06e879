/**
 * @module Tests: the page's strict CSP in Chromium against the `workspaced serve` bin. The policy
 * admits no inline style but the `<style>` elements xterm.js and CodeMirror create, which carry the
 * nonce of the answer that delivered the page: a terminal renders with xterm's injected colours and
 * font size, the code editor with CodeMirror's base layout, and no `securitypolicyviolation` fires; a `<style>` or a `style` attribute put in by
 * anyone else is refused (the event fires and the rule does not apply), while CSSOM styling works.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ownerPassword } from '../support/daemon.js';
import { type ProjectDaemon, startProjectDaemon, stopProjectDaemon } from '../support/project-daemon.js';
import { desktop, launchChromium, signIn } from './support/browser.js';

let started: ProjectDaemon;
let browser: Browser;
let page: Page;
let policy: string;

interface Violation {
  directive: string;
  sample: string;
}

/** The page's `securitypolicyviolation` events, recorded from before its first script runs. */
const recordViolations = `window.violations = [];
document.addEventListener('securitypolicyviolation', (event) => {
  window.violations.push({ directive: event.effectiveDirective, sample: event.sample });
});`;

const violations = () => page.evaluate<Violation[]>('window.violations');

beforeAll(async () => {
  started = await startProjectDaemon('strict-csp', {
    prepare: (folder) => writeFile(path.join(folder, 'notes.ts'), 'const answer = 42;\n'),
  });
  browser = await launchChromium();
  const { owner, projectId, daemon } = started;
  expect((await owner.post('/terminals', { project_id: projectId, shell: '/bin/sh' })).status).toBe(201);
  // Light theme: the page's text is dark, so xterm's white text shows its own style applied.
  page = await browser.newPage({ ...desktop, colorScheme: 'light' });
  page.setDefaultTimeout(15_000);
  await page.addInitScript(recordViolations);
  const documentAnswer = page.waitForResponse((answer) => answer.request().resourceType() === 'document');
  await signIn(page, `${daemon.url}/projects/${projectId}/terminals`, 'owner', ownerPassword);
  policy = (await (await documentAnswer).headerValue('content-security-policy')) ?? '';
});
afterAll(async () => {
  await browser?.close();
  await stopProjectDaemon(started?.daemon);
});

test('the policy admits inline styles only with the nonce the page carries', async () => {
  const nonce = await page.evaluate<string>(`document.querySelector('script[type="module"]').nonce`);
  expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
  expect(policy).toContain(`style-src 'self' 'nonce-${nonce}';`);
  expect(policy).not.toContain('unsafe-inline');
  // Chromium hides the nonce from the markup: a CSS attribute selector cannot read it.
  expect(await page.evaluate(`document.querySelector('script[type="module"]').getAttribute('nonce')`)).toBe(
    '',
  );
});

test('a terminal renders with the styles xterm.js injects, and nothing is refused', async () => {
  const { owner } = started;
  const terminal = page.locator('section.terminal');
  await terminal.getByTestId('terminal-state').getByText('connected').waitFor();
  const [created] = (await owner.get('/terminals')).body.terminals as { id: number }[];
  await owner.post(`/terminals/${created?.id}/input`, { data: 'echo styled-$((6*7))\n' });
  const rows = terminal.locator('.xterm-rows');
  await expect.poll(() => rows.textContent()).toContain('styled-42');

  // xterm's three style elements (grid, colours, scrollbar) carry the page's nonce.
  const styleNonces = await page.evaluate<boolean[]>(`(() => {
    const nonce = document.querySelector('script[type="module"]').nonce;
    return [...document.querySelectorAll('.xterm style')].map((style) => style.nonce === nonce);
  })()`);
  expect(styleNonces).toEqual([true, true, true]);
  // Colour and size come only from xterm's injected rules (the page's own text is dark, 15 px).
  const row = await page.evaluate<{ color: string; fontSize: string; pointerEvents: string }>(`(() => {
    const style = getComputedStyle(document.querySelector('.xterm-rows > div'));
    return { color: style.color, fontSize: style.fontSize, pointerEvents: style.pointerEvents };
  })()`);
  expect(row).toEqual({ color: 'rgb(255, 255, 255)', fontSize: '13px', pointerEvents: 'none' });
  expect(await violations()).toEqual([]);
});

test('the code editor renders with the styles CodeMirror injects, and nothing is refused', async () => {
  await page.getByRole('link', { name: 'Files' }).click();
  await page.getByRole('list', { name: 'Files' }).getByRole('button', { name: 'notes.ts' }).click();
  await page.getByLabel('notes.ts', { exact: true }).getByText('answer').waitFor();
  // CodeMirror's base theme (its one style element) lays the scroller out as a flex row.
  const scroller = await page.evaluate<string>(
    `getComputedStyle(document.querySelector('.cm-scroller')).display`,
  );
  expect(scroller).toBe('flex');
  expect(await violations()).toEqual([]);
});

test('a style put in without the nonce is refused; CSSOM styling still works', async () => {
  await page.evaluate(`(() => {
    const bare = document.createElement('style');
    bare.textContent = 'body { outline: 7px solid red; }';
    document.head.append(bare);
    const guessed = document.createElement('style');
    guessed.nonce = 'Z3Vlc3NlZC1ub25jZS0xMjM=';
    guessed.textContent = 'body { margin-top: 77px; }';
    document.head.append(guessed);
    document.querySelector('main').setAttribute('style', 'padding-top: 55px');
    document.querySelector('.brand').style.letterSpacing = '3px';
  })()`);
  await expect.poll(async () => (await violations()).length).toBe(3);
  expect((await violations()).map((violation) => violation.directive).sort()).toEqual([
    'style-src-attr',
    'style-src-elem',
    'style-src-elem',
  ]);
  const applied = await page.evaluate<string[]>(`[
    getComputedStyle(document.body).outlineWidth,
    getComputedStyle(document.body).marginTop,
    getComputedStyle(document.querySelector('main')).paddingTop,
    getComputedStyle(document.querySelector('.brand')).letterSpacing,
  ]`);
  expect(applied[0]).not.toBe('7px');
  expect(applied[1]).not.toBe('77px');
  expect(applied[2]).not.toBe('55px');
  expect(applied[3]).toBe('3px');
});
