/**
 * @module Debian's Chromium for browser tests: whether it is here, and how to launch it offline.
 */
import { existsSync } from 'node:fs';
import { type Browser, chromium, type Page } from 'playwright-core';

const chromiumPath = '/usr/bin/chromium';

/**
 * True when the browser tests must run: Chromium is installed, or this is CI (where a missing
 * Chromium must fail the run instead of skipping). Elsewhere prints why the tests are skipped.
 */
export function browserTestsRun(suite: string): boolean {
  const present = existsSync(chromiumPath);
  if (!present && !process.env.CI) console.warn(`skipping ${suite}: no Chromium at ${chromiumPath}`);
  return present || Boolean(process.env.CI);
}

/** Headless Chromium with the background services off: the machines have no internet. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

/**
 * Waits until `expression` (JavaScript run in the page) is true. `page.waitForFunction` would
 * re-run a string predicate through `eval` in the page once its first try fails, which the cards'
 * and the gallery's Content-Security-Policy refuse; `page.evaluate` goes through the DevTools
 * protocol, which no CSP governs.
 */
export async function waitInPage(page: Page, expression: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await page.evaluate<boolean>(expression))) {
    if (Date.now() > deadline) throw new Error(`still false after ${timeoutMs} ms: ${expression}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
