/**
 * @module Tests: the loop from a task card in Chromium against the `workspaced serve` bin, with
 * stand-in agents on the daemon's PATH and a project that is a real git repository. A task is
 * created, an agent started from its card (installed profiles offered, the prompt defaulting to
 * the title); its live terminal shows the agent's output, a follow-up is typed into it, and the
 * task moves to Review. The review shows the diff per file (unified and side by side, syntax
 * highlighted, collapsed per file with the mouse and the keyboard), a file comment becomes the
 * next follow-up (the agent runs again with it), and Land with squash puts the change on main
 * (checked with git). A second task conflicting with main shows the conflicting path and leaves
 * main alone; Pull request without a remote shows the daemon's reason; Stop stops a waiting agent,
 * whose output stays shown with a line saying it ended (and, opened afresh, the view says the
 * terminal is gone). At 390 px nothing scrolls sideways; screens at 1280 and 390 px, light and dark.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startAttemptDaemon } from '../support/attempts.js';
import { ownerPassword } from '../support/daemon.js';
import { git } from '../support/git-repo.js';
import type { ProjectDaemon } from '../support/project-daemon.js';
import { stopProjectDaemon } from '../support/project-daemon.js';
import {
  collectCspViolations,
  desktop,
  launchChromium,
  onEveryScreen,
  phone390,
  scrollsSideways,
  signIn,
} from './support/browser.js';

describe('agent attempts, review and land from the task board', () => {
  let started: ProjectDaemon;
  let browser: Browser;
  let page: Page;
  let cspViolations: string[];
  const tasksUrl = () => `${started.daemon.url}/projects/${started.projectId}/tasks`;
  const terminalText = (view: Locator) => view.locator('section.terminal .xterm-rows').textContent();

  beforeAll(async () => {
    started = await startAttemptDaemon('loop', { files: { 'README.md': 'hello\n' } });
    browser = await launchChromium();
    page = await browser.newPage(desktop);
    page.setDefaultTimeout(15_000);
    cspViolations = collectCspViolations(page);
    await signIn(page, tasksUrl(), 'owner', ownerPassword);
  });
  afterAll(async () => {
    await browser?.close();
    await stopProjectDaemon(started?.daemon);
  });

  const createTask = async (title: string) => {
    await page.getByLabel('New task').fill(title);
    await page.getByRole('button', { name: 'Add task' }).click();
    await page
      .getByRole('region', { name: 'To do', exact: true })
      .getByRole('heading', { name: title })
      .waitFor();
    await page.getByRole('button', { name: `Agent and review of "${title}"` }).click();
    return page.getByRole('region', { name: `Task "${title}"` });
  };
  const fileBox = (view: Locator, file: string) => view.locator('details.diff-file', { hasText: file });

  test('an agent started from the card runs in a live terminal, takes a follow-up, and the task moves to review', async () => {
    const view = await createTask('Add a feature');
    const agent = view.getByLabel('Agent');
    await expect.poll(() => agent.inputValue()).toBe('claude');
    expect(await agent.locator('option:not([disabled])').allTextContents()).toEqual([
      'claude',
      'codex',
      'gemini',
      'opencode',
      'aider',
      'cursor-agent',
    ]);
    expect(await view.getByLabel('Prompt').inputValue()).toBe('Add a feature');

    await view.getByLabel('Prompt').fill('print agent-started;;wait');
    await view.getByRole('button', { name: 'Start agent' }).click();
    await view.getByTestId('attempt-state').getByText('running').waitFor();
    await page
      .getByRole('region', { name: 'Running', exact: true })
      .getByRole('heading', { name: 'Add a feature' })
      .waitFor();
    await expect.poll(() => terminalText(view)).toContain('claude waiting for input');
    expect(await terminalText(view)).toContain('agent-started');

    await view
      .getByLabel('Follow-up')
      .fill(
        'write feature.txt line one\\nline two\\n;;write feature.ts export const answer = 42;\\n;;commit add feature;;write README.md changed\\n;;print agent-finished-ok',
      );
    await view.getByRole('button', { name: 'Send to the agent' }).click();
    await expect.poll(() => terminalText(view)).toContain('agent-finished-ok');
    await view.getByTestId('attempt-state').getByText('finished (exit 0)').waitFor();
    await page
      .getByRole('region', { name: 'Review', exact: true })
      .getByRole('heading', { name: 'Add a feature' })
      .waitFor();
  });

  test('the review shows each file unified and side by side, highlighted, and collapses a file', async () => {
    const review = page.getByRole('region', { name: 'Review of "Add a feature"' });
    const feature = fileBox(review, 'feature.txt');
    await feature.locator('.diff-status', { hasText: 'added' }).waitFor();
    expect(await feature.locator('summary .diff-count-add').textContent()).toBe('+2');
    expect(await feature.locator('.diff-add').allTextContents()).toEqual(['+line one', '+line two']);
    const readme = fileBox(review, 'README.md');
    expect(await readme.locator('.diff-status').textContent()).toBe('modified');
    // The uncommitted README change is in the diff too.
    expect(await readme.locator('.diff-del').allTextContents()).toEqual(['-hello']);

    // A TypeScript file's lines are parsed: its keyword and number are token spans.
    const typescript = fileBox(review, 'feature.ts');
    await typescript.locator('.diff-add .tok-keyword', { hasText: 'const' }).waitFor();
    expect(await typescript.locator('.diff-add .tok-number').allTextContents()).toEqual(['42']);
    expect(await typescript.locator('.diff-add').allTextContents()).toEqual(['+export const answer = 42;']);

    await review.getByLabel('Side by side').check();
    const left = readme.locator('pre[data-side=left] .diff-line');
    const right = readme.locator('pre[data-side=right] .diff-line');
    const lefts = await left.allTextContents();
    const row = lefts.indexOf('-hello');
    expect(row).toBeGreaterThan(0);
    expect((await right.allTextContents())[row]).toBe('+changed');
    expect(await left.count()).toBe(await right.count());
    await review.getByLabel('Unified').check();

    await feature.locator('summary').click();
    expect(await feature.locator('pre.git-diff').isVisible()).toBe(false);
    await feature.locator('summary').click();
    await feature.locator('pre.git-diff').waitFor();

    // With the keyboard: Enter on the focused header closes the file, Space opens it again.
    await feature.locator('summary').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => feature.locator('pre.git-diff').count()).toBe(0);
    expect(await feature.getAttribute('open')).toBeNull();
    await page.keyboard.press(' ');
    await feature.locator('pre.git-diff').waitFor();
  });

  test('a file comment becomes the follow-up prompt: the agent runs again with it', async () => {
    const view = page.getByRole('region', { name: 'Task "Add a feature"' });
    const review = view.getByRole('region', { name: 'Review of "Add a feature"' });
    await review
      .getByLabel('Comment on feature.txt')
      .fill('write review.txt from the review\\n;;commit apply review');
    await review.getByRole('button', { name: 'Send comments as follow-up' }).click();
    await fileBox(view, 'review.txt').locator('.diff-add', { hasText: '+from the review' }).waitFor();
    await view.getByTestId('attempt-state').getByText('finished (exit 0)').waitFor();
    expect(git(started.projectDir, 'log', '-1', '--format=%s', 'main').trim()).toBe('initial');
  });

  test('Pull request without a remote shows the daemon reason; Land with squash puts the change on main', async () => {
    const review = page.getByRole('region', { name: 'Review of "Add a feature"' });
    await review.getByRole('button', { name: 'Pull request' }).click();
    const tasks = (await started.owner.get(`/projects/${started.projectId}/tasks`)).body.tasks;
    const task = tasks.find((item: { title: string }) => item.title === 'Add a feature');
    const refused = await started.owner.post(`/tasks/${task.id}/pull-request`, {});
    expect(refused.status).toBe(424);
    expect(refused.body.error.code).toBe('FORGE_UNAVAILABLE');
    await review
      .getByRole('alert')
      .getByText(`${refused.body.error.message}: ${refused.body.error.reason}`)
      .waitFor();

    await review.getByLabel('Strategy').selectOption('squash');
    await review.getByRole('button', { name: 'Land' }).click();
    const landed = await review.getByRole('status').getByText('Landed on main as').textContent();
    const commit = git(started.projectDir, 'rev-parse', 'main').trim();
    expect(landed).toBe(`Landed on main as ${commit}`);
    expect(git(started.projectDir, 'rev-list', '--count', 'main').trim()).toBe('2');
    expect(git(started.projectDir, 'show', 'main:feature.txt')).toBe('line one\nline two\n');
    expect(git(started.projectDir, 'show', 'main:README.md')).toBe('changed\n');
    expect(git(started.projectDir, 'show', 'main:review.txt')).toBe('from the review\n');
    await page
      .getByRole('region', { name: 'Done', exact: true })
      .getByRole('heading', { name: 'Add a feature' })
      .waitFor();
  });

  test('a landing that conflicts with main lists the conflicting path and leaves main as it was', async () => {
    const view = await createTask('Rewrite the readme');
    await view.getByLabel('Prompt').fill('write README.md agent version\\n;;commit agent readme');
    await view.getByRole('button', { name: 'Start agent' }).click();
    await view.getByTestId('attempt-state').getByText('finished (exit 0)').waitFor();
    await writeFile(path.join(started.projectDir, 'README.md'), 'main version\n');
    git(started.projectDir, 'commit', '-q', '-am', 'main readme');
    const mainBefore = git(started.projectDir, 'rev-parse', 'main').trim();

    const review = view.getByRole('region', { name: 'Review of "Rewrite the readme"' });
    await fileBox(review, 'README.md').waitFor();
    await review.getByRole('button', { name: 'Land' }).click();
    const conflicts = review.getByRole('alert').getByRole('list', { name: 'Conflicting paths' });
    await conflicts.waitFor();
    expect(await conflicts.getByRole('listitem').allTextContents()).toEqual(['README.md']);
    expect(git(started.projectDir, 'rev-parse', 'main').trim()).toBe(mainBefore);
    expect(git(started.projectDir, 'status', '--porcelain').trim()).toBe('');
  });

  test('Stop ends a waiting agent', async () => {
    const view = page.getByRole('region', { name: 'Task "Rewrite the readme"' });
    await view.getByLabel('Prompt').fill('wait');
    await view.getByRole('button', { name: 'Start another attempt' }).click();
    await view.getByTestId('attempt-state').getByText('running').waitFor();
    await expect.poll(() => terminalText(view)).toContain('claude waiting for input');
    await view.getByRole('button', { name: 'Stop' }).click();
    await view.getByTestId('attempt-state').getByText('stopped').waitFor();
    // The stopped agent's output stays on screen, with a line saying it has ended.
    await view.getByTestId('terminal-ended').getByText('The agent has ended: stopped.').waitFor();
    expect(await terminalText(view)).toContain('claude waiting for input');
    const [newest] = (await started.owner.get(`/tasks/${await taskId('Rewrite the readme')}/attempts`)).body
      .attempts;
    expect(newest.state).toBe('stopped');
  });

  const taskId = async (title: string) =>
    (await started.owner.get(`/projects/${started.projectId}/tasks`)).body.tasks.find(
      (item: { title: string }) => item.title === title,
    ).id as number;

  test('the pages ran without a CSP violation', () => {
    expect(cspViolations).toEqual([]);
  });

  test('at 390 px the task view with its start form, attempt and review actions does not scroll sideways', async () => {
    const phone = await browser.newPage(phone390);
    try {
      await signIn(phone, tasksUrl(), 'owner', ownerPassword);
      await phone.getByRole('button', { name: 'Agent and review of "Rewrite the readme"' }).click();
      const view = phone.getByRole('region', { name: 'Task "Rewrite the readme"' });
      await view.getByRole('button', { name: 'Start another attempt' }).waitFor();
      // Opened afresh, the stopped agent's terminal is gone: the view says so instead of a blank box.
      await view
        .getByTestId('terminal-ended')
        .getByText('the daemon keeps no output of an ended terminal')
        .waitFor();
      expect(await view.locator('section.terminal').count()).toBe(0);
      expect(await scrollsSideways(phone)).toBe(false);
    } finally {
      await phone.close();
    }
  });

  test('the review with a highlighted diff, at 1280 and 390 px in light and dark: nothing scrolls sideways', async () => {
    await onEveryScreen(browser, async (target, name) => {
      await signIn(target, tasksUrl(), 'owner', ownerPassword);
      await target.getByRole('button', { name: 'Agent and review of "Add a feature"' }).click();
      const review = target.getByRole('region', { name: 'Review of "Add a feature"' });
      await fileBox(review, 'feature.ts').locator('.tok-keyword', { hasText: 'const' }).waitFor();
      await review.getByLabel('Side by side').check();
      expect(await scrollsSideways(target)).toBe(false);
      await target.screenshot({ path: `/tmp/workspaced-review-${name}.png`, fullPage: true });
    });
  });
});
