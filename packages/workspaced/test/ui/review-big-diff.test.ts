/**
 * @module Tests: a review of 2,000 changed files in Chromium (390 px) against the `workspaced
 * serve` bin, with a stand-in agent and real git. Every file gets its header, only the first
 * files open (the shown lines stay within the budget), a closed file opens with Enter on its
 * header, and a file with a 6,000-character line scrolls inside its box, never the page.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { newTask, runAttempt, startAttemptDaemon } from '../support/attempts.js';
import { ownerPassword } from '../support/daemon.js';
import type { ProjectDaemon } from '../support/project-daemon.js';
import { stopProjectDaemon } from '../support/project-daemon.js';
import {
  collectCspViolations,
  launchChromium,
  phone390,
  scrollsSideways,
  signIn,
} from './support/browser.js';

const fileCount = 2_000;
/** `collapse-policy.ts`'s budget of lines shown open at first. */
const openLinesBudget = 3_000;

describe('a review of 2,000 changed files', () => {
  let started: ProjectDaemon;
  let browser: Browser;
  let page: Page;
  let cspViolations: string[];

  beforeAll(async () => {
    started = await startAttemptDaemon('bigdiff');
    const task = await newTask(started.owner, started.projectId, 'Touch everything');
    const ended = await runAttempt(started.owner, task.id, {
      profile: 'claude',
      prompt: 'write one.ts export const one = 1;\\n;;commit one',
    });
    // The agent's uncommitted work is part of the review: 2,000 new files and one long line.
    const worktree = ended.worktree_path as string;
    await mkdir(path.join(worktree, 'many'));
    await Promise.all(
      Array.from({ length: fileCount }, (_, at) =>
        writeFile(
          path.join(worktree, 'many', `file-${String(at).padStart(4, '0')}.ts`),
          `export const value = ${at};\nexport const name = 'file ${at}';\n`,
        ),
      ),
    );
    await writeFile(path.join(worktree, 'wide.ts'), `export const wide = '${'x'.repeat(6_000)}';\n`);
    browser = await launchChromium();
    page = await browser.newPage(phone390);
    page.setDefaultTimeout(30_000);
    cspViolations = collectCspViolations(page);
  });
  afterAll(async () => {
    await browser?.close();
    await stopProjectDaemon(started?.daemon);
  });

  test('every file has its header, and only the first ones open within the line budget', async () => {
    await signIn(page, `${started.daemon.url}/projects/${started.projectId}/tasks`, 'owner', ownerPassword);
    await page.getByRole('button', { name: 'Agent and review of "Touch everything"' }).click();
    const review = page.getByRole('region', { name: 'Review of "Touch everything"' });
    await review.getByText(`${fileCount + 2} files`).waitFor();
    const files = review.locator('details.diff-file');
    expect(await files.count()).toBe(fileCount + 2);
    const open = await review.locator('details.diff-file[open]').count();
    expect(open).toBeGreaterThan(0);
    expect(open).toBeLessThan(fileCount);
    expect(await review.locator('.diff-line').count()).toBeLessThanOrEqual(openLinesBudget);
    expect(await files.last().getAttribute('open')).toBeNull();
  });

  test('a closed file opens with Enter; its long line scrolls inside its box, not the page', async () => {
    const review = page.getByRole('region', { name: 'Review of "Touch everything"' });
    const wide = review.locator('details.diff-file', { hasText: 'wide.ts' });
    expect(await wide.getAttribute('open')).toBeNull();
    await wide.locator('summary').focus();
    await page.keyboard.press('Enter');
    await wide.locator('.diff-add .tok-string').waitFor();
    expect(await scrollsSideways(page)).toBe(false);
    const [scrollWidth, clientWidth] = await wide
      .locator('pre.git-diff')
      .evaluate((box) => [box.scrollWidth, box.clientWidth]);
    expect(scrollWidth).toBeGreaterThan(clientWidth);
  });

  test('the page ran without a CSP violation', () => {
    expect(cspViolations).toEqual([]);
  });
});
