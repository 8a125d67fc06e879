/**
 * @module Tests: every screen of the embedded UI measured in Chromium rather than judged by eye, on
 * the `workspaced serve` bin with a project that is a real git repository and a stand-in agent
 * waiting for input. At 1280 and 390 px, in the light and the dark theme (the system setting,
 * emulated): axe-core finds no serious or critical violation, nothing scrolls sideways, the CSP
 * refuses nothing, and a screenshot is written to `test/ui/screenshots/` (git-ignored) for a
 * reviewer. Also: a board card says the task's state, its agent and what that agent is doing,
 * and its branch; the project overview counts what the API holds; the theme switch overrides the
 * system; a keyboard-only walk signs in, opens the project, creates a task and opens it; the toast
 * that confirms a new task, at both widths and themes; the first load's JavaScript stays under
 * 200 KB gzipped.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { horizontalExtent, seriousAxeFindings, tabTo, watchCspViolations } from '@suite/test-kit/page-checks';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { newTask, startAttemptDaemon } from '../support/attempts.js';
import { ownerPassword } from '../support/daemon.js';
import { type ProjectDaemon, stopProjectDaemon } from '../support/project-daemon.js';
import { launchChromium, signIn } from './support/browser.js';

const screenshots = fileURLToPath(new URL('./screenshots/', import.meta.url));
const distUi = fileURLToPath(new URL('../../dist/ui/', import.meta.url));
const widths = [1280, 390];
const themes = ['light', 'dark'] as const;

describe('web UI screens: accessibility, layout, themes, keyboard', () => {
  let started: ProjectDaemon;
  let browser: Browser;
  let attempt: { id: number; branch: string; profile: string; terminal_id: number };
  const url = (route: string) => `${started.daemon.url}${route}`;
  const project = (tab: string) => url(`/projects/${started.projectId}/${tab}`);

  beforeAll(async () => {
    started = await startAttemptDaemon('measured', { files: { 'README.md': 'hello\n' } });
    browser = await launchChromium();
    mkdirSync(screenshots, { recursive: true });
    const { owner, projectId } = started;
    // Something on every screen: tasks in three states, an agent waiting for input on one of them
    // (an attention item too), a terminal, a finished workflow run, a token.
    await newTask(owner, projectId, 'Write the changelog');
    const moved = await newTask(owner, projectId, 'Ship it');
    expect((await owner.post(`/tasks/${moved.id}/move`, { state: 'done', version: 1 })).status).toBe(200);
    const agentTask = await newTask(owner, projectId, 'Add a feature');
    const begun = await owner.post(`/tasks/${agentTask.id}/attempts`, { profile: 'claude', prompt: 'wait' });
    expect(begun.status).toBe(201);
    attempt = begun.body as typeof attempt;
    expect((await owner.post('/terminals', { project_id: projectId })).status).toBe(201);
    const gate = await owner.post('/workflows', {
      name: 'gate',
      steps: [{ name: 'approve', kind: 'approval' }],
    });
    expect(gate.status).toBe(201);
    const run = await owner.post('/workflows/gate/start', { project_id: projectId });
    expect(run.status).toBe(201);
    expect((await owner.post(`/workflow-runs/${run.body.id}/cancel`)).status).toBe(200);
    expect((await owner.post('/tokens', { name: 'ci' })).status).toBe(201);
  });
  afterAll(async () => {
    await browser?.close();
    await stopProjectDaemon(started?.daemon);
  });

  /** Waits for the screen's data, then measures it and writes its screenshot. */
  async function measure(page: Page, shot: string) {
    await page.locator('main h1').first().waitFor();
    // Skeletons gone: the screen shows its data, not its loading state.
    await expect.poll(() => page.locator('[aria-busy="true"]').count(), { timeout: 30_000 }).toBe(0);
    await page.screenshot({ path: path.join(screenshots, `${shot}.png`), fullPage: true });
    const [scroll, client] = await horizontalExtent(page);
    expect(scroll, `${shot} scrolls sideways`).toBeLessThanOrEqual(client);
    expect(await seriousAxeFindings(page), `${shot}: axe-core`).toEqual([]);
  }

  /**
   * How far from the brand's vertical centre the top bar's controls are centred (whole px): the
   * brand itself, then each control of the account group.
   */
  function headerRowOffsets(page: Page): Promise<number[]> {
    return page.evaluate<number[]>(`(() => {
      const centre = (element) => {
        const box = element.getBoundingClientRect();
        return box.top + box.height / 2;
      };
      const brand = centre(document.querySelector('.topbar .brand'));
      const controls = [...document.querySelectorAll('.topbar .who > :not(.who-name)')];
      return [brand, ...controls.map(centre)].map((at) => Math.abs(Math.round(at - brand)));
    })()`);
  }

  const pageScreens = [
    { name: 'projects', route: '/' },
    { name: 'git', route: 'git' },
    { name: 'agents', route: '/agents' },
    { name: 'attention', route: '/attention' },
    { name: 'workflows', route: '/workflows' },
    { name: 'services', route: '/services' },
    { name: 'nodes', route: '/nodes' },
    { name: 'notification-rules', route: '/admin/notifications' },
    { name: 'tokens', route: '/admin/tokens' },
    { name: 'users', route: '/admin/users' },
    { name: 'audit', route: '/admin/audit' },
  ];

  for (const theme of themes)
    for (const width of widths)
      test(`every screen at ${width} px in the ${theme} theme`, async () => {
        const page = await browser.newPage({ viewport: { width, height: 900 }, colorScheme: theme });
        page.setDefaultTimeout(20_000);
        const csp = watchCspViolations(page);
        await page.goto(url('/'));
        await page.getByRole('heading', { name: 'Sign in to workspaced' }).waitFor();
        await page.screenshot({
          path: path.join(screenshots, `${theme}-${width}-sign-in.png`),
          fullPage: true,
        });
        expect(await seriousAxeFindings(page), 'sign-in: axe-core').toEqual([]);
        await signIn(page, url('/'), 'owner', ownerPassword);
        // Brand, notifications button, theme switch and Sign out share the top bar's first row.
        await page.getByRole('button', { name: 'Enable browser notifications' }).waitFor();
        expect(await headerRowOffsets(page)).toEqual([0, 0, 0, 0]);

        for (const screen of pageScreens) {
          await page.goto(screen.route.startsWith('/') ? url(screen.route) : project(screen.route));
          await measure(page, `${theme}-${width}-${screen.name}`);
        }
        // The project's overview over its files, then a file open in the editor.
        await page.goto(project('files'));
        await page.getByRole('region', { name: 'Project overview' }).getByText('clean').waitFor();
        await measure(page, `${theme}-${width}-project-overview`);
        await page.getByRole('list', { name: 'Files' }).getByRole('button', { name: 'README.md' }).click();
        await page.getByLabel('README.md', { exact: true }).getByText('hello').waitFor();
        await measure(page, `${theme}-${width}-files-editor`);
        // The board, with the agent waiting for input on its card, then that task's view.
        await page.goto(project('tasks'));
        await page.locator('article.card .kit-badge', { hasText: /^waiting for input$/ }).waitFor();
        await measure(page, `${theme}-${width}-board`);
        await page.getByRole('button', { name: 'Agent and review of "Add a feature"' }).click();
        await page.getByRole('region', { name: 'Task "Add a feature"' }).waitFor();
        await measure(page, `${theme}-${width}-task-view`);
        // The terminals, connected.
        await page.goto(project('terminals'));
        await page.getByTestId('terminal-state').first().getByText('connected').waitFor();
        await measure(page, `${theme}-${width}-terminals`);
        // The background follows the system setting.
        const background = await page.evaluate('getComputedStyle(document.documentElement).backgroundColor');
        expect(background).toBe(theme === 'dark' ? 'rgb(15, 20, 25)' : 'rgb(245, 247, 250)');
        expect(csp).toEqual([]);
        await page.close();
      }, 240_000);

  test('a board card shows the task state, the agent and what it does, and its branch; the overview counts them', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await signIn(page, project('tasks'), 'owner', ownerPassword);
    const card = page.locator('article.card', { has: page.getByRole('heading', { name: 'Add a feature' }) });
    const tasks = (await started.owner.get(`/projects/${started.projectId}/tasks`)).body.tasks as {
      title: string;
      state: string;
    }[];
    const state = tasks.find((task) => task.title === 'Add a feature')?.state;
    expect(state).toBe('running');
    // The agent is the attempt terminal's own process, detected as waiting for input.
    await expect
      .poll(() => card.locator('.kit-badge').allTextContents())
      .toEqual(['Running', 'waiting for input']);
    expect(await card.locator('.card-facts').first().textContent()).toContain(attempt.profile);
    expect(await card.locator('code').textContent()).toBe(attempt.branch);
    // A task without an attempt says so.
    const plain = page.locator('article.card', {
      has: page.getByRole('heading', { name: 'Write the changelog' }),
    });
    await plain.getByText('no agent yet').waitFor();

    const overview = page.getByRole('region', { name: 'Project overview' });
    await overview.getByText('1 To do, 1 Running, 1 Done').waitFor();
    await overview.getByText('gate').waitFor();
    expect(await overview.locator('code').first().textContent()).toBe(started.projectDir);
    // The one agent, the attempt's, waits for input (the other terminal runs a shell).
    await overview.getByText('1 running, 1 waiting for input', { exact: true }).waitFor();

    // Told to exit, the agent ends: the card follows the daemon's events without a reload.
    const typed = await started.owner.post(`/terminals/${attempt.terminal_id}/input`, { data: 'exit 0\n' });
    expect(typed.status).toBe(204);
    await card.getByText('ended').waitFor();
    await page.close();
  });

  test('the theme switch overrides the system setting and is kept across a reload', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, colorScheme: 'light' });
    await signIn(page, url('/'), 'owner', ownerPassword);
    await page.getByRole('button', { name: 'Dark theme' }).click();
    const background = () => page.evaluate('getComputedStyle(document.documentElement).backgroundColor');
    await expect.poll(background).toBe('rgb(15, 20, 25)');
    await page.reload();
    await page.getByRole('heading', { name: 'Projects' }).waitFor();
    expect(await background()).toBe('rgb(15, 20, 25)');
    await page.getByRole('button', { name: 'System theme' }).click();
    await expect.poll(background).toBe('rgb(245, 247, 250)');
    await page.close();
  });

  test('keyboard only: sign in, open the project, create a task, open it', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const csp = watchCspViolations(page);
    await page.goto(url('/'));
    await page.getByRole('heading', { name: 'Sign in to workspaced' }).waitFor();
    await page.keyboard.press('Tab');
    await page.keyboard.type('owner');
    await page.keyboard.press('Tab');
    await page.keyboard.type(ownerPassword);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Projects' }).waitFor();
    await tabTo(page, 'measured');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'measured' }).waitFor();
    await tabTo(page, 'Tasks');
    await page.keyboard.press('Enter');
    await tabTo(page, 'Add task');
    // The field is just before its button.
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.type('Typed with the keyboard');
    await page.keyboard.press('Enter');
    await page
      .getByRole('region', { name: 'To do', exact: true })
      .getByRole('heading', { name: 'Typed with the keyboard' })
      .waitFor();
    await tabTo(page, 'Agent and review of "Typed with the keyboard"');
    await page.keyboard.press('Enter');
    await page.getByRole('region', { name: 'Task "Typed with the keyboard"' }).waitFor();
    const tasks = (await started.owner.get(`/projects/${started.projectId}/tasks`)).body.tasks as {
      title: string;
    }[];
    expect(tasks.map((task) => task.title)).toContain('Typed with the keyboard');
    expect(await seriousAxeFindings(page)).toEqual([]);
    expect(csp).toEqual([]);
    await page.close();
  }, 120_000);

  for (const theme of themes)
    for (const width of widths)
      test(`a toast at ${width} px in the ${theme} theme is read out, fits the window and passes axe`, async () => {
        const page = await browser.newPage({ viewport: { width, height: 900 }, colorScheme: theme });
        const csp = watchCspViolations(page);
        await signIn(page, project('tasks'), 'owner', ownerPassword);
        const title = `Confirmed by a toast at ${width} px, ${theme}`;
        await page.getByLabel('New task').fill(title);
        await page.getByRole('button', { name: 'Add task' }).click();
        const toasts = page.getByRole('region', { name: 'Notifications' });
        await toasts.getByRole('dialog', { name: `Added "${title}" to To do` }).waitFor();
        expect(await toasts.getAttribute('aria-live')).toBe('polite');
        await page.screenshot({ path: path.join(screenshots, `${theme}-${width}-toast.png`) });
        const [scroll, client] = await horizontalExtent(page);
        expect(scroll).toBeLessThanOrEqual(client);
        expect(await seriousAxeFindings(page)).toEqual([]);
        expect(csp).toEqual([]);
        await page.close();
      });

  test('the first load stays under 200 KB of JavaScript gzipped', () => {
    const html = readFileSync(path.join(distUi, 'index.html'), 'utf8');
    const scripts = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((match) => match[1]!);
    expect(scripts.length).toBeGreaterThan(0);
    const gzipped = scripts.reduce(
      (total, script) => total + gzipSync(readFileSync(path.join(distUi, script)), { level: 9 }).length,
      0,
    );
    console.log(`first load: ${scripts.length} scripts, ${(gzipped / 1024).toFixed(1)} KB gzipped`);
    expect(gzipped).toBeLessThan(200 * 1024);
  });
});
