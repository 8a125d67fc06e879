/**
 * @module What the Chromium tests of the embedded UI share: launching `/usr/bin/chromium`, the
 * CSP-violation collector, signing in through the form, the phone viewport and its
 * no-sideways-scroll check, and the hostile name that must stay text.
 */
import { type Browser, type BrowserContextOptions, chromium, type Page } from 'playwright-core';
import { expect } from 'vitest';

/** A name that would run script if the UI rendered it as markup. */
export const hostile = `<img src=x onerror=document.title='pwned'>`;

export const desktop = { viewport: { width: 1280, height: 900 } } satisfies BrowserContextOptions;
export const phone = {
  viewport: { width: 375, height: 812 },
  isMobile: true,
  hasTouch: true,
} satisfies BrowserContextOptions;

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
}

/** The console messages of `page` that report a Content Security Policy violation. */
export function collectCspViolations(page: Page): string[] {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (message.text().includes('Content Security Policy')) violations.push(message.text());
  });
  return violations;
}

/** Opens `url` signed out, signs in through the form and waits for the shell. */
export async function signIn(page: Page, url: string, username: string, password: string): Promise<void> {
  await page.goto(url);
  await page.getByRole('heading', { name: 'Sign in to workspaced' }).waitFor();
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
}

/**
 * At 375 px the page is one column: nothing makes it scroll sideways, and no menu or tab link is
 * squeezed into a column of broken words (each stays one line high).
 */
export async function expectPhoneLayout(page: Page): Promise<void> {
  // Run in the page, where `document` exists (the test's tsconfig has no DOM types).
  expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
  const brokenLinks = await page.evaluate<
    string[]
  >(`[...document.querySelectorAll('nav a')].filter((link) => {
    const text = document.createRange();
    text.selectNodeContents(link);
    return text.getClientRects().length > 1; // one rectangle per line the words take
  }).map((link) => link.textContent)`);
  expect(brokenLinks).toEqual([]);
}
