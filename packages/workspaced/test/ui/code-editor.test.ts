/**
 * @module Tests: the Files tab's code editor (CodeMirror 6) in Chromium against the
 * `workspaced serve` bin. A TypeScript file opens highlighted (its keywords in token spans); text
 * typed and saved with Ctrl-S is on disk (read back), with "Unsaved changes" until then; Ctrl-F
 * finds a word; a 4 MB file opens with only the lines in view drawn, and an edit at its end saved
 * with the button is on disk. With unsaved edits, a project tab, a main menu link and Back each ask
 * first, and cancelling keeps the edits (accepting leaves them unsaved on disk). Screens at 1280 and 390 px in light and dark are written for a
 * reviewer; at 390 px nothing scrolls sideways; no page records a CSP violation.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  ownerPassword,
  type RunningDaemon,
  removeDataDir,
  setupOwner,
  startDaemon,
} from '../support/daemon.js';
import { createRepo } from '../support/git-repo.js';
import { removeScratchDirs } from '../support/scratch.js';
import {
  collectCspViolations,
  desktop,
  dismissToast,
  launchChromium,
  onEveryScreen,
  scrollsSideways,
  signIn,
} from './support/browser.js';

// biome-ignore lint/suspicious/noTemplateCurlyInString: TypeScript source holding a template literal
const source = 'export function greet(name: string) {\n  return `hello ${name}`;\n}\n// the needle is here\n';
/** About 4 MB of JavaScript, one short statement a line. */
const largeLines = 120_000;
const large = Array.from({ length: largeLines }, (_, at) => `const value${at} = ${at}; // line ${at}`).join(
  '\n',
);

describe('the code editor of the Files tab', () => {
  let daemon: RunningDaemon;
  let browser: Browser;
  let page: Page;
  let repo: string;
  let filesUrl: string;
  let cspViolations: string[];
  const editorOf = (target: Page, file: string) => target.getByRole('region', { name: `Editor of ${file}` });

  beforeAll(async () => {
    repo = await createRepo({ 'src/greet.ts': source, 'notes.txt': 'plain notes\n' });
    await writeFile(path.join(repo, 'large.js'), large);
    daemon = await startDaemon();
    const owner = await setupOwner(daemon);
    const projectId = (await owner.post('/projects', { name: 'repo', path: repo })).body.id;
    filesUrl = `${daemon.url}/projects/${projectId}/files`;
    browser = await launchChromium();
    page = await browser.newPage(desktop);
    page.setDefaultTimeout(15_000);
    cspViolations = collectCspViolations(page);
    await signIn(page, filesUrl, 'owner', ownerPassword);
  });
  afterAll(async () => {
    await browser?.close();
    await daemon?.stop();
    if (daemon) await removeDataDir(daemon);
    await removeScratchDirs();
  });

  const openFile = async (target: Page, folder: string | undefined, file: string) => {
    const files = target.getByRole('list', { name: 'Files' });
    // Back to the project's top folder first.
    if (await files.getByRole('button', { name: '..', exact: true }).isVisible())
      await files.getByRole('button', { name: '..', exact: true }).click();
    if (folder) await files.getByRole('button', { name: `${folder}/` }).click();
    await files.getByRole('button', { name: file, exact: true }).click();
    return editorOf(target, folder ? `${folder}/${file}` : file);
  };

  test('a TypeScript file opens highlighted: its keywords are token spans', async () => {
    const editor = await openFile(page, 'src', 'greet.ts');
    await editor.locator('.tok-keyword', { hasText: 'function' }).waitFor();
    expect(await editor.locator('.tok-keyword', { hasText: 'return' }).count()).toBe(1);
    expect(await editor.locator('.tok-comment').textContent()).toBe('// the needle is here');
    expect(await editor.getByTestId('editor-state').textContent()).toBe('Saved');
  });

  test('typed text shows as unsaved; Ctrl-S writes it to the file on disk', async () => {
    const editor = editorOf(page, 'src/greet.ts');
    const text = editor.getByLabel('src/greet.ts', { exact: true });
    await text.click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('export const answer = 42;\n');
    await editor.getByTestId('editor-state').getByText('Unsaved changes').waitFor();
    await page.keyboard.press('Control+s');
    await dismissToast(page, 'Saved src/greet.ts');
    await editor.getByTestId('editor-state').getByText('Saved', { exact: true }).waitFor();
    expect(await readFile(path.join(repo, 'src/greet.ts'), 'utf8')).toBe(
      `${source}export const answer = 42;\n`,
    );
  });

  test('Ctrl-F opens the search, and Enter selects the match', async () => {
    const editor = editorOf(page, 'src/greet.ts');
    await editor.getByLabel('src/greet.ts', { exact: true }).click();
    await page.keyboard.press('Control+f');
    const find = editor.getByRole('textbox', { name: 'Find' });
    await find.waitFor();
    // Typed key by key, as a person does: CodeMirror takes the query on key-up.
    await find.pressSequentially('needle');
    await find.press('Enter');
    await expect.poll(() => editor.locator('.cm-searchMatch-selected').textContent()).toBe('needle');
    await page.screenshot({ path: '/tmp/workspaced-editor-search-1280.png' });
  });

  test('a 4 MB file opens with only the lines in view drawn; an edit at its end is saved with the button', async () => {
    const editor = await openFile(page, undefined, 'large.js');
    const text = editor.getByLabel('large.js', { exact: true });
    await text.getByText('const value0 = 0; // line 0').waitFor();
    // CodeMirror draws the lines in view, not 120,000 of them.
    expect(await text.locator('.cm-line').count()).toBeLessThan(500);
    await text.click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('\n// edited at the end');
    await text.getByText('// edited at the end').waitFor();
    await editor.getByRole('button', { name: 'Save' }).click();
    await dismissToast(page, 'Saved large.js');
    expect(await readFile(path.join(repo, 'large.js'), 'utf8')).toBe(`${large}\n// edited at the end`);
  });

  test('leaving unsaved edits by a project tab, the main menu or Back asks first; cancelling keeps them', async () => {
    const questions: string[] = [];
    const answerNext = (accept: boolean) =>
      page.once('dialog', (dialog) => {
        questions.push(dialog.message());
        void (accept ? dialog.accept() : dialog.dismiss());
      });
    const tabs = page.getByRole('navigation', { name: 'Project' });
    // Through another tab first, so that Back has somewhere to go.
    await tabs.getByRole('link', { name: 'Tasks' }).click();
    await tabs.getByRole('link', { name: 'Files' }).click();
    const editor = await openFile(page, 'src', 'greet.ts');
    const text = editor.getByLabel('src/greet.ts', { exact: true });
    await text.click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('// not saved yet\n');
    await editor.getByTestId('editor-state').getByText('Unsaved changes').waitFor();

    answerNext(false);
    await tabs.getByRole('link', { name: 'Git' }).click();
    answerNext(false);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Workflows' }).click();
    answerNext(false);
    // The browser's Back, as history.back() starts it (Playwright's goBack waits for a load).
    await page.evaluate('history.back()');
    await expect.poll(() => questions.length).toBe(3);
    expect(new Set(questions)).toEqual(new Set(['Discard the unsaved changes to src/greet.ts?']));
    expect(new URL(page.url()).pathname).toBe(new URL(filesUrl).pathname);
    await text.getByText('// not saved yet').waitFor();
    expect(await editor.getByTestId('editor-state').textContent()).toBe('Unsaved changes');

    answerNext(true);
    await tabs.getByRole('link', { name: 'Git' }).click();
    await page.getByRole('heading', { name: 'Recent commits' }).waitFor();
    expect(questions).toHaveLength(4);
    expect(await readFile(path.join(repo, 'src/greet.ts'), 'utf8')).not.toContain('not saved yet');
  });

  test('the pages ran without a CSP violation', () => {
    expect(cspViolations).toEqual([]);
  });

  test('at 1280 and 390 px, in light and dark, the editor fits: nothing scrolls sideways at 390 px', async () => {
    await onEveryScreen(browser, async (target, name) => {
      await signIn(target, filesUrl, 'owner', ownerPassword);
      const editor = await openFile(target, 'src', 'greet.ts');
      await editor.locator('.tok-keyword', { hasText: 'function' }).waitFor();
      expect(await scrollsSideways(target)).toBe(false);
      await target.screenshot({ path: `/tmp/workspaced-editor-${name}.png`, fullPage: true });
    });
  });
});
