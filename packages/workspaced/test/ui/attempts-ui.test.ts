/**
 * @module Tests: the loop from a task card in Chromium against the `workspaced serve` bin, with
 * stand-in agents on the daemon's PATH and a project that is a real git repository. A task is
 * created, an agent started from its card (installed profiles offered, the prompt defaulting to
 * the title); its live terminal shows the agent's output, a follow-up is typed into it, and the
 * task moves to Review. The review shows the diff per file (unified and side by side, syntax
 * highlighted, collapsed per file with the mouse and the keyboard). Comments on single lines of
 * two files (mouse and keyboard; one edited, one deleted; hostile and very long text shown as
 * text) become one follow-up prompt that the agent receives with each path:line, quoted line and
 * text. Land with squash puts the change on main (checked with git). A second task conflicting with main shows the conflicting path and leaves
 * main alone; Pull request without a remote shows the daemon's reason; Stop stops a waiting agent,
 * whose terminal gives way to the output the daemon kept (its socket not reopened), also when the
 * view is opened afresh; an agent that prints and exits at once shows its last line and exit
 * code. At 390 px nothing scrolls sideways; screens at 1280 and 390 px, light and dark.
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
  dismissToast,
  hostile,
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
  // xterm.js draws nothing while it is off screen (it pauses rendering), and the terminal sits
  // under the board and the project overview: it is shown first, as a user scrolls to it.
  const terminalText = async (view: Locator) => {
    await view.locator('section.terminal').scrollIntoViewIfNeeded();
    return view.locator('section.terminal .xterm-rows').textContent();
  };
  /** The running agent's live terminal, or once it ended the output the daemon kept. */
  const agentOutput = async (view: Locator) => {
    const shown = view.locator('section.terminal, .attempt-output');
    if ((await shown.count()) > 0) await shown.first().scrollIntoViewIfNeeded();
    return (await view.locator('section.terminal .xterm-rows, .attempt-output').allTextContents()).join('\n');
  };
  /** Terminal sockets the page opened: a closed one must not come back. */
  const terminalSockets: string[] = [];

  beforeAll(async () => {
    started = await startAttemptDaemon('loop', { files: { 'README.md': 'hello\n' } });
    browser = await launchChromium();
    page = await browser.newPage(desktop);
    page.setDefaultTimeout(15_000);
    cspViolations = collectCspViolations(page);
    page.on('websocket', (socket) => {
      if (socket.url().includes('/terminals/')) terminalSockets.push(socket.url());
    });
    await signIn(page, tasksUrl(), 'owner', ownerPassword);
  });
  afterAll(async () => {
    await browser?.close();
    await stopProjectDaemon(started?.daemon);
  });

  const createTask = async (title: string) => {
    await page.getByLabel('New task').fill(title);
    await page.getByRole('button', { name: 'Add task' }).click();
    await dismissToast(page, `Added "${title}" to To do`);
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
    await expect.poll(() => agentOutput(view)).toContain('agent-finished-ok');
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

  test('comments on single lines of two files become one follow-up prompt: the agent runs again with it', async () => {
    const view = page.getByRole('region', { name: 'Task "Add a feature"' });
    const review = view.getByRole('region', { name: 'Review of "Add a feature"' });
    const longLine = 'long '.repeat(300);
    // With the mouse: line 2 of the added file.
    await review.getByRole('button', { name: 'Comment on feature.txt line 2 (new side)' }).click();
    await review
      .getByLabel('Your comment on feature.txt:2 (new side)')
      .fill('write review.txt from the review\\n;;commit apply review');
    await review.getByRole('button', { name: 'Save comment' }).click();
    // With the keyboard: Tab reaches the README's first line number, Down the next, Enter opens it.
    const readme = fileBox(review, 'README.md');
    const firstNumber = readme.getByRole('button', { name: 'Comment on README.md line 1 (old side)' });
    await firstNumber.focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    const box = review.getByLabel('Your comment on README.md:1 (new side)');
    await box.waitFor();
    await page.keyboard.type(`${hostile} ${longLine}`);
    await page.keyboard.press('Control+Enter');
    // Several per file, and one deleted before sending.
    await firstNumber.click();
    await review
      .getByLabel('Your comment on README.md:1 (old side)')
      .fill('a comment deleted before sending');
    await review.getByRole('button', { name: 'Save comment' }).click();
    await review
      .getByRole('region', { name: 'Comment on README.md:1 (old side)' })
      .getByRole('button', { name: 'Delete' })
      .click();
    // Edited before sending.
    const first = review.getByRole('region', { name: 'Comment on feature.txt:2 (new side)' });
    await first.getByRole('button', { name: 'Edit' }).click();
    await first.getByLabel('Your comment on feature.txt:2 (new side)').press('End');
    await page.keyboard.type(';;print edited-comment-ran');
    await first.getByRole('button', { name: 'Save comment' }).click();
    // The hostile text shows as typed, wrapped inside the review.
    const shown = review.getByRole('region', { name: 'Comment on README.md:1 (new side)' });
    expect(await shown.locator('.line-comment-text').textContent()).toBe(`${hostile} ${longLine}`.trim());
    expect(await shown.locator('img').count()).toBe(0);
    expect(await scrollsSideways(page)).toBe(false);

    await review.getByRole('button', { name: /Send 2 comments as follow-up/ }).click();
    await fileBox(view, 'review.txt').locator('.diff-add', { hasText: '+from the review' }).waitFor();
    await view.getByTestId('attempt-state').getByText('finished (exit 0)').waitFor();
    const received = (await view.getByRole('region', { name: 'Output of the agent' }).textContent()) ?? '';
    expect(received).toContain('feature.txt:2 (new side)\n> line two\nwrite review.txt from the review');
    expect(received).toContain('edited-comment-ran');
    expect(received).toContain(`README.md:1 (new side)\n> changed\n${hostile} ${longLine}`.trim());
    expect(received).not.toContain('deleted before sending');
    expect(await page.title()).not.toBe('pwned');
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
    const socketsBefore = terminalSockets.length;
    await view.getByRole('button', { name: 'Stop' }).click();
    await dismissToast(page, 'Stopped the agent');
    await view.getByTestId('attempt-state').getByText('stopped').waitFor();
    // The live terminal gives way to the end of the output the daemon kept, and a line saying it ended.
    await view.getByTestId('terminal-ended').getByText('The agent has ended: stopped').waitFor();
    const output = view.getByRole('region', { name: 'Output of the agent' });
    expect(await output.textContent()).toContain('claude waiting for input');
    expect(await view.locator('section.terminal').count()).toBe(0);
    // Its socket, closed with 1000 "terminal exited", was not opened again.
    expect(terminalSockets.length).toBe(socketsBefore);
    const [newest] = (await started.owner.get(`/tasks/${await taskId('Rewrite the readme')}/attempts`)).body
      .attempts;
    expect(newest.state).toBe('stopped');
  });

  test('an agent that prints and exits at once: the view shows its last line and exit code, no terminal box', async () => {
    const view = await createTask('Quick failure');
    await view.getByLabel('Prompt').fill('print a first line;;print the very last line;;exit 3');
    await view.getByRole('button', { name: 'Start agent' }).click();
    await view.getByTestId('attempt-state').getByText('failed').waitFor();
    await view.getByTestId('terminal-ended').getByText('The agent has ended: failed (exit 3).').waitFor();
    const output = view.getByRole('region', { name: 'Output of the agent' });
    await output.getByText('the very last line').waitFor();
    expect(await view.locator('section.terminal').count()).toBe(0);
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
      // Opened afresh, the stopped agent's terminal is gone; its kept output shows instead of a box.
      const output = view.getByRole('region', { name: 'Output of the agent' });
      expect(await output.textContent()).toContain('claude waiting for input');
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
      // A line comment side by side: a saved one and one being written, long words and all.
      await review.getByRole('button', { name: 'Comment on feature.ts line 1 (new side)' }).click();
      await review
        .getByLabel('Your comment on feature.ts:1 (new side)')
        .fill(`${hostile} ${'x'.repeat(400)}`);
      await review.getByRole('button', { name: 'Save comment' }).click();
      await review.getByRole('button', { name: 'Comment on README.md line 1 (old side)' }).click();
      await review.getByLabel('Your comment on README.md:1 (old side)').waitFor();
      expect(await scrollsSideways(target)).toBe(false);
      await target.screenshot({ path: `/tmp/workspaced-review-${name}.png`, fullPage: true });
    });
  });
});
