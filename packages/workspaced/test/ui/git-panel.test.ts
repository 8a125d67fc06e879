/**
 * @module Tests: the Git tab and the task board's "Open worktree" in Chromium against the
 * `workspaced serve` bin, on a project that is a real git repository. With no changes the panel
 * says "No changes" where the file lists go, at 1280 and 390 px, with no blank stretch between
 * its blocks. A file edited on disk shows
 * in the status, its diff shows the added line, it is staged and committed from the UI (checked
 * with `git log`); committing with nothing staged and a switch git refuses show the daemon's
 * message; a branch is created and switched to (checked with `git rev-parse`); a task's worktree
 * is opened from its card (checked with `git worktree list`) and a terminal opened in it runs on
 * the task's branch. A long file's diff starts closed and opens with Enter, highlighted. A
 * hostile file name stays text; on a phone nothing scrolls sideways; a
 * viewer sees the status but staging and opening a worktree show the daemon's 403 message.
 */
import { appendFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  type Client,
  ownerPassword,
  type RunningDaemon,
  removeDataDir,
  setupOwner,
  startDaemon,
  userClient,
} from '../support/daemon.js';
import { createRepo, git } from '../support/git-repo.js';
import { removeScratchDirs } from '../support/scratch.js';
import {
  collectCspViolations,
  desktop,
  dismissToast,
  expectPhoneLayout,
  hostile,
  launchChromium,
  onEveryScreen,
  phone as phoneSize,
  scrollsSideways,
  signIn as signInAt,
} from './support/browser.js';

const hostileFile = `${hostile}.txt`;

describe('git panel and task worktrees', () => {
  let daemon: RunningDaemon;
  let browser: Browser;
  let page: Page;
  let owner: Client;
  let repo: string;
  let projectId: number;
  let worktreePath: string;
  let cspViolations: string[];
  const head = () => git(repo, 'rev-parse', '--abbrev-ref', 'HEAD').trim();

  beforeAll(async () => {
    repo = await createRepo({ 'README.md': 'hello\n', 'notes.txt': 'notes\n' });
    daemon = await startDaemon();
    owner = await setupOwner(daemon);
    projectId = (await owner.post('/projects', { name: 'repo', path: repo })).body.id;
    browser = await launchChromium();
    page = await browser.newPage(desktop);
    page.setDefaultTimeout(10_000);
    cspViolations = collectCspViolations(page);
  });
  afterAll(async () => {
    await browser?.close();
    await daemon?.stop();
    if (daemon) await removeDataDir(daemon);
    await removeScratchDirs();
  });

  const signIn = (target: Page, username = 'owner', password = ownerPassword) =>
    signInAt(target, `${daemon.url}/projects/${projectId}/git`, username, password);
  const openGitTab = async () => {
    await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Tasks' }).click();
    await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Git' }).click();
  };

  /**
   * The tallest blank stretch (whole px) above a block of the panel: between it and the lowest
   * block above it in its column, or the panel's top. Run in the page (no DOM types here).
   */
  const largestBlank = (target: Page) =>
    target.evaluate<number>(`(() => {
      const panel = document.querySelector('.git-panel').getBoundingClientRect();
      const blocks = [...document.querySelectorAll('.git-side > *, .git-main > *')]
        .map((block) => block.getBoundingClientRect())
        .filter((box) => box.height > 0)
        .sort((a, b) => a.top - b.top);
      let largest = 0;
      blocks.forEach((box, at) => {
        const above = blocks.slice(0, at).filter((other) => other.left < box.right && box.left < other.right);
        largest = Math.max(largest, box.top - Math.max(panel.top, ...above.map((other) => other.bottom)));
      });
      return Math.round(largest);
    })()`);

  test('with no changes the panel says so where the files go, with no blank gap, at 1280 and 390 px', async () => {
    await onEveryScreen(browser, async (target, name) => {
      await signIn(target);
      await target
        .getByRole('region', { name: 'Recent commits', exact: true })
        .getByText('initial')
        .waitFor();
      await target.getByRole('region', { name: 'Branches', exact: true }).getByText('current').waitFor();
      expect(await target.getByText('No changes', { exact: true }).isVisible()).toBe(true);
      expect(await target.getByText('Nothing to commit: the work tree is clean.').isVisible()).toBe(true);
      // No file to choose, so no prompt to choose one.
      expect(await target.getByText('Choose a changed file to see its diff.').count()).toBe(0);
      // A stretch taller than 2.5rem with nothing in it reads as a hole in the panel.
      expect(await largestBlank(target), name).toBeLessThanOrEqual(40);
      expect(await scrollsSideways(target)).toBe(false);
      await target.screenshot({ path: `/tmp/workspaced-git-panel-clean-${name}.png` });
    });
  });

  test('a file edited on disk is in the status; its diff shows the added line; a hostile name is text', async () => {
    await appendFile(path.join(repo, 'README.md'), 'a line added by the test\n');
    await writeFile(path.join(repo, hostileFile), 'x\n');
    await signIn(page);
    await page.getByTestId('git-head').getByText('main').waitFor();

    const unstaged = page.getByRole('region', { name: 'Unstaged', exact: true });
    await unstaged.getByRole('button', { name: 'README.md', exact: true }).click();
    const diff = page.getByRole('region', { name: 'Diff', exact: true });
    await diff.locator('.diff-add', { hasText: '+a line added by the test' }).waitFor();
    expect(await diff.locator('.diff-context', { hasText: 'hello' }).count()).toBe(1);

    const untracked = page.getByRole('region', { name: 'Untracked', exact: true });
    await untracked.getByText(hostileFile, { exact: true }).waitFor();
    expect(await page.locator('.git-panel img').count()).toBe(0);
    expect(await page.title()).toBe('workspaced');
  });

  test('staging moves the files to Staged; a commit with a message is in git log; an empty commit is refused', async () => {
    await page.getByRole('button', { name: 'Stage README.md', exact: true }).click();
    const staged = page.getByRole('region', { name: 'Staged', exact: true });
    await staged.getByRole('button', { name: 'README.md', exact: true }).waitFor();
    // The diff follows the file to the staged side.
    await page.getByRole('region', { name: 'Diff', exact: true }).getByText('Staged diff of').waitFor();
    await page.getByRole('button', { name: `Stage ${hostileFile}`, exact: true }).click();
    await staged.getByRole('button', { name: hostileFile, exact: true }).waitFor();
    expect(await page.locator('.git-panel img').count()).toBe(0);
    const status = (await owner.get(`/projects/${projectId}/git/status`)).body;
    expect(status.entries.map((entry: { path: string; index: string }) => [entry.path, entry.index])).toEqual(
      expect.arrayContaining([
        ['README.md', 'M'],
        [hostileFile, 'A'],
      ]),
    );

    // Unstage and stage again: the file goes back and forth.
    await page.getByRole('button', { name: `Unstage ${hostileFile}`, exact: true }).click();
    await page
      .getByRole('region', { name: 'Untracked', exact: true })
      .getByText(hostileFile, { exact: true })
      .waitFor();
    await page.getByRole('button', { name: `Stage ${hostileFile}`, exact: true }).click();
    await staged.getByRole('button', { name: hostileFile, exact: true }).waitFor();

    await page.getByLabel('Commit message').fill('Add a line from the UI');
    await page.getByRole('button', { name: 'Commit staged changes' }).click();
    await dismissToast(page, 'Committed');
    await page.getByText('Nothing to commit: the work tree is clean.').waitFor();
    expect(git(repo, 'log', '-1', '--format=%s').trim()).toBe('Add a line from the UI');
    expect(git(repo, 'show', '--name-only', '--format=', 'HEAD').split('\n')).toEqual(
      expect.arrayContaining(['README.md', hostileFile]),
    );
    await page
      .getByRole('region', { name: 'Recent commits', exact: true })
      .getByText('Add a line from the UI')
      .waitFor();

    await page.getByLabel('Commit message').fill('Nothing in it');
    await page.getByRole('button', { name: 'Commit staged changes' }).click();
    await page.getByRole('alert').getByText('nothing is staged to commit').waitFor();
    expect(git(repo, 'log', '-1', '--format=%s').trim()).toBe('Add a line from the UI');
  });

  test('a branch is created and switched to; a switch that would lose changes shows the refusal and the file', async () => {
    await page.getByLabel('New branch').fill('feature/ui');
    await page.getByRole('button', { name: 'Create branch' }).click();
    await dismissToast(page, 'Created branch feature/ui');
    expect(git(repo, 'branch', '--list', 'feature/ui').trim()).toContain('feature/ui');
    await page.getByRole('button', { name: 'Switch to feature/ui' }).click();
    await page.getByTestId('git-head').getByText('feature/ui').waitFor();
    expect(head()).toBe('feature/ui');

    // notes.txt differs between the branches and is changed locally: git refuses to switch back.
    await writeFile(path.join(repo, 'notes.txt'), 'feature notes\n');
    git(repo, 'commit', '-q', '-am', 'feature notes');
    await writeFile(path.join(repo, 'notes.txt'), 'unsaved local notes\n');
    await openGitTab();
    await page
      .getByRole('region', { name: 'Unstaged', exact: true })
      .getByRole('button', { name: 'notes.txt', exact: true })
      .waitFor();
    await page.getByRole('button', { name: 'Switch to main' }).click();
    const alert = page.getByRole('alert');
    await alert.getByText('local changes would be overwritten; commit or discard them first').waitFor();
    await alert.getByText('notes.txt').waitFor();
    expect(head()).toBe('feature/ui');
    expect(git(repo, 'status', '--porcelain')).toContain('notes.txt');
  });

  test('a task worktree is opened from its card, and a terminal in it runs on the task branch', async () => {
    await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Tasks' }).click();
    await page.getByLabel('New task').fill('Fix the login');
    await page.getByRole('button', { name: 'Add task' }).click();
    const column = page.getByRole('region', { name: 'To do', exact: true });
    await column.getByRole('heading', { name: 'Fix the login' }).waitFor();
    await column.getByRole('button', { name: 'Open worktree of "Fix the login"' }).click();
    await column.getByText('Worktree created on branch').waitFor();

    const [task] = (await owner.get(`/projects/${projectId}/tasks`)).body.tasks;
    worktreePath = task.worktree_path;
    expect(await column.getByTestId('worktree-path').textContent()).toBe(worktreePath);
    expect(await column.locator('code', { hasText: `agent/${task.id}-fix-the-login` }).count()).toBe(1);
    expect((await stat(worktreePath)).isDirectory()).toBe(true);
    expect(git(repo, 'worktree', 'list', '--porcelain')).toContain(`worktree ${worktreePath}`);

    await column.getByRole('button', { name: 'Open a terminal in it' }).click();
    const terminal = page.locator('section.terminal');
    await terminal.getByTestId('terminal-state').getByText('connected').waitFor();
    expect(page.url()).toBe(`${daemon.url}/projects/${projectId}/terminals`);
    await terminal.locator('.terminal-box').click();
    await page.keyboard.type('echo "on-$(git rev-parse --abbrev-ref HEAD)"\n');
    await expect
      .poll(() => terminal.locator('.xterm-rows').textContent())
      .toContain(`on-agent/${task.id}-fix-the-login`);
    const live = (await owner.get('/terminals')).body.terminals;
    expect(live.map((item: { cwd: string }) => item.cwd)).toEqual([worktreePath]);
  });

  test('a long file diff starts closed; Enter on its header opens it, highlighted', async () => {
    const lines = (value: string) =>
      Array.from({ length: 700 }, (_, at) => `export const v${at} = '${value}';\n`).join('');
    await writeFile(path.join(repo, 'long.ts'), lines('old'));
    git(repo, 'add', 'long.ts');
    git(repo, 'commit', '-q', '-m', 'long file');
    await writeFile(path.join(repo, 'long.ts'), lines('new'));
    await openGitTab();
    await page
      .getByRole('region', { name: 'Unstaged', exact: true })
      .getByRole('button', { name: 'long.ts', exact: true })
      .click();
    const file = page.getByRole('region', { name: 'Diff', exact: true }).locator('details.diff-file');
    await file.locator('summary .diff-count-add', { hasText: '+700' }).waitFor();
    // 1,400 changed lines: closed, so no row is drawn until asked.
    expect(await file.getAttribute('open')).toBeNull();
    expect(await file.locator('.diff-line').count()).toBe(0);
    await file.locator('summary').focus();
    await page.keyboard.press('Enter');
    await file.locator('.diff-add .tok-keyword', { hasText: 'export' }).first().waitFor();
    expect(await file.locator('.diff-add .tok-string').first().textContent()).toBe("'new'");
  });

  test('the git panel with a highlighted diff at 1280 and 390 px, light and dark: nothing scrolls sideways', async () => {
    await onEveryScreen(browser, async (target, name) => {
      await signIn(target);
      await target
        .getByRole('region', { name: 'Unstaged', exact: true })
        .getByRole('button', { name: 'long.ts', exact: true })
        .click();
      const file = target.getByRole('region', { name: 'Diff', exact: true }).locator('details.diff-file');
      // 1,400 changed lines diffed and highlighted: a loaded CI machine once took over 15 s.
      await file.locator('summary').click({ timeout: 45_000 });
      await file.locator('.tok-keyword').first().waitFor();
      expect(await scrollsSideways(target)).toBe(false);
      await target.screenshot({ path: `/tmp/workspaced-git-panel-${name}.png` });
    });
  });

  test('the pages ran without a CSP violation', () => {
    expect(cspViolations).toEqual([]);
  });

  test('on a phone (375 px) the git panel with a long diff and the board with a worktree do not scroll sideways', async () => {
    await writeFile(path.join(repo, 'notes.txt'), `${'a-very-long-line-without-spaces-'.repeat(20)}\n`);
    const phone = await browser.newPage(phoneSize);
    try {
      await signIn(phone);
      await phone
        .getByRole('region', { name: 'Unstaged', exact: true })
        .getByRole('button', { name: 'notes.txt', exact: true })
        .click();
      const added = phone.getByRole('region', { name: 'Diff', exact: true }).locator('.diff-add');
      await added.waitFor();
      await expectPhoneLayout(phone);
      // The long line scrolls inside the diff box instead.
      const [scrollWidth, clientWidth] = await phone.evaluate<number[]>(
        "(() => { const box = document.querySelector('[data-testid=file-diff]'); return [box.scrollWidth, box.clientWidth]; })()",
      );
      expect(scrollWidth).toBeGreaterThan(clientWidth);

      await phone.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Tasks' }).click();
      const column = phone.getByRole('region', { name: 'To do', exact: true });
      await column.getByRole('button', { name: 'Open worktree of "Fix the login"' }).click();
      await column.getByText('Worktree ready on branch').waitFor();
      expect(await column.getByTestId('worktree-path').textContent()).toBe(worktreePath);
      await expectPhoneLayout(phone);
    } finally {
      await phone.close();
    }
  });

  test('a viewer sees the status; staging and opening a worktree show the permission refusal', async () => {
    await userClient(daemon, owner, 'viewer1', 'viewer');
    expect(
      (await owner.post(`/projects/${projectId}/members`, { username: 'viewer1', role: 'viewer' })).status,
    ).toBe(200);
    const viewer = await browser.newPage(desktop);
    try {
      await signIn(viewer, 'viewer1', 'viewer1 password 123');
      const unstaged = viewer.getByRole('region', { name: 'Unstaged', exact: true });
      await unstaged.getByRole('button', { name: 'notes.txt', exact: true }).waitFor();
      await viewer.getByRole('button', { name: 'Stage notes.txt', exact: true }).click();
      await viewer.getByRole('alert').getByText('your role does not grant git.write').waitFor();
      expect(git(repo, 'diff', '--cached', '--name-only').trim()).toBe('');

      await viewer.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Tasks' }).click();
      const column = viewer.getByRole('region', { name: 'To do', exact: true });
      await column.getByRole('button', { name: 'Open worktree of "Fix the login"' }).click();
      await column.getByRole('alert').getByText('your role does not grant tasks.write').waitFor();
    } finally {
      await viewer.close();
    }
  });
});
