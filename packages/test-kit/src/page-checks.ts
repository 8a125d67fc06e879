/**
 * @module What the screen tests measure on a page: axe-core's accessibility audit (serious and
 * critical violations), horizontal scrolling, CSP violations reported to the console, and
 * keyboard-only moves (Tab until an element is focused).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeFinding {
  id: string;
  impact: string;
  help: string;
  targets: string[];
}

/**
 * Runs axe-core in the page. It is evaluated through the DevTools protocol rather than added as
 * a `<script>`: the UI's CSP (`script-src 'self'`) rightly refuses an inline script.
 */
export async function seriousAxeFindings(page: Page): Promise<AxeFinding[]> {
  await page.evaluate(`${axeSource}\n;void 0`);
  const findings = await page.evaluate<AxeFinding[]>(`
    axe.run(document, { resultTypes: ['violations'] }).then((result) =>
      result.violations
        .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
        .map((violation) => ({
          id: violation.id,
          impact: violation.impact,
          help: violation.help,
          targets: violation.nodes.map((node) => node.target.join(' ')),
        })),
    )`);
  return findings;
}

/** `[scrollWidth, clientWidth]` of the document: equal when nothing scrolls sideways. */
export function horizontalExtent(page: Page): Promise<[number, number]> {
  return page.evaluate<[number, number]>(
    '[document.documentElement.scrollWidth, document.documentElement.clientWidth]',
  );
}

/** Collects the console's CSP refusals of a page (Chromium logs each one as an error). */
export function watchCspViolations(page: Page): string[] {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text()))
      violations.push(message.text());
  });
  return violations;
}

/** Presses Tab until the focused element's accessible text is `name` (at most `limit` presses). */
export async function tabTo(page: Page, name: string | RegExp, limit = 60): Promise<void> {
  for (let press = 0; press < limit; press++) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(
      `(() => { const e = document.activeElement; return e ? (e.getAttribute('aria-label') || e.textContent || '').trim() : ''; })()`,
    );
    if (typeof name === 'string' ? focused === name : name.test(String(focused))) return;
  }
  throw new Error(`Tab never reached ${String(name)}`);
}
