/**
 * @module What the Chromium tests of the embedded UI share: launching `/usr/bin/chromium`, the
 * CSP-violation collector, signing in through the form, the kit's toasts, the phone viewport and
 * its no-sideways-scroll check, and the hostile name that must stay text.
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

/** The narrow phone of the issues' "works at 390 px". */
export const phone390 = {
  viewport: { width: 390, height: 844 },
  isMobile: true,
  hasTouch: true,
} satisfies BrowserContextOptions;

/** Whether the page is wider than its window (the user would scroll it sideways). */
export function scrollsSideways(page: Page): Promise<boolean> {
  // Run in the page, where `document` exists (the test's tsconfig has no DOM types).
  return page.evaluate<boolean>(
    'document.documentElement.scrollWidth > document.documentElement.clientWidth',
  );
}

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

/**
 * Runs `visit` on a fresh page for each screen a reviewer looks at: 1280 and 390 px wide, light and
 * dark (`name` is like `390-dark`, for screenshot files); each page must record no CSP violation.
 */
export async function onEveryScreen(
  browser: Browser,
  visit: (page: Page, name: string) => Promise<void>,
): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const)
    for (const [options, width] of [
      [desktop, 1280],
      [phone390, 390],
    ] as const) {
      const page = await browser.newPage({ ...options, colorScheme });
      page.setDefaultTimeout(15_000);
      const violations = collectCspViolations(page);
      try {
        await visit(page, `${width}-${colorScheme}`);
        expect(violations).toEqual([]);
      } finally {
        await page.close();
      }
    }
}

/**
 * Waits for the kit's toast saying `text` (a dialog in the polite live region "Notifications",
 * which screen readers read out) and dismisses it with its button, so that a later toast with the
 * same words is a new one.
 */
export async function dismissToast(page: Page, text: string): Promise<void> {
  const toast = page
    .getByRole('region', { name: 'Notifications' })
    .getByRole('dialog')
    .filter({ hasText: text });
  await toast.waitFor();
  // Base UI hides the close button from the accessibility tree until the toast has focus.
  await toast.getByRole('button', { name: 'Dismiss', includeHidden: true }).click();
  await toast.waitFor({ state: 'detached' });
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
  expect(await scrollsSideways(page)).toBe(false);
  const brokenLinks = await page.evaluate<
    string[]
  >(`[...document.querySelectorAll('nav a')].filter((link) => {
    // The link's words only (an icon beside them is a rectangle of its own): one rectangle per line.
    const words = document.createTreeWalker(link, NodeFilter.SHOW_TEXT);
    const text = document.createRange();
    for (let node = words.nextNode(); node; node = words.nextNode()) {
      text.selectNodeContents(node);
      if (text.getClientRects().length > 1) return true;
    }
    return false;
  }).map((link) => link.textContent)`);
  expect(brokenLinks).toEqual([]);
}
