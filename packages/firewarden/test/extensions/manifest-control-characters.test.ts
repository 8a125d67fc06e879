/**
 * @module Tests: control characters (C0, DEL, C1) and bidi overrides in any string of a manifest,
 * keys included, are refused by `extension install` with the key path, and the refusal never
 * prints them raw; a manifest stored before they were refused is listed with them escaped, in
 * text and in JSON (which still parses back to the stored value).
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createInstallation, type Installation } from '../support/installation.js';
import { runCli } from '../support/running-bin.js';
import { sqlRunner } from '../support/sql-fixtures.js';
import { exampleDir, exampleVariant } from './support/example-variant.js';

/** What a terminal would act on: C0 (but the newline ending each line), DEL, C1, bidi controls. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the characters under test
const unsafe = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

let installation: Installation;
const config = () => ['--config', installation.configFile];

const variant = (name: string, replace: (text: string) => string) =>
  exampleVariant(installation.dir, name, replace);

beforeAll(async () => {
  installation = (await createInstallation('sqlite'))!;
});
afterAll(async () => {
  await installation.remove();
});

describe('extension install refuses control and bidi characters', () => {
  // YAML double-quoted escapes, so the file itself is plain text: \e is ESC, \x9b the C1 CSI.
  const cases: [string, (text: string) => string, string, string][] = [
    [
      'an ESC sequence in the name',
      (t) => t.replace('name: Local health', 'name: "Local \\e]0;owned\\a health"'),
      'name',
      'U+001B',
    ],
    [
      'a right-to-left override in the author',
      (t) => t.replace('author: firewarden examples', 'author: "firewarden \\u202Eselpmaxe"'),
      'author',
      'U+202E',
    ],
    [
      'a C1 CSI in a widget title',
      (t) => t.replace('title: Local service status', 'title: "Local \\x9b2J status"'),
      'widgets.0.title',
      'U+009B',
    ],
    [
      'a DEL in a widget URL',
      (t) => t.replace('url: http://127.0.0.1:9100/status.json', 'url: "http://127.0.0.1:9100/a\\x7fb.json"'),
      'widgets.0.query.url',
      'U+007F',
    ],
    ['a tab in the name', (t) => t.replace('name: Local health', 'name: "Local\\thealth"'), 'name', 'U+0009'],
    [
      'a first-strong isolate in a capability',
      (t) => t.replace('  - events.read', '  - "events.read\\u2068"'),
      'capabilities.1',
      'U+2068',
    ],
    ['an ESC in a key', (t) => `${t}"x\\e[31m": 1\n`, 'x\\u001b[31m', 'U+001B'],
  ];

  test.each(cases)('%s is refused with its key path (exit 2)', async (name, edit, at, character) => {
    const dir = await variant(name.replaceAll(' ', '-'), edit);
    const result = await runCli(['extension', 'install', dir, ...config()]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      `${path.join(dir, 'extension.yaml')}: ${at}: holds the control or bidi character ${character}, which a manifest may not contain`,
    );
    expect(result.stdout + result.stderr).not.toMatch(unsafe);
    const listed = await runCli(['extension', 'list', ...config(), '--json']);
    expect(JSON.parse(listed.stdout).extensions).toEqual([]);
  });
});

test('a manifest stored before the refusal is listed with its control characters escaped', async () => {
  expect((await runCli(['extension', 'install', exampleDir, ...config()])).code).toBe(0);
  const author = 'evil \u001b]0;owned\u0007 \u009b2J \u202ereversed \u007f';
  const sql = await sqlRunner({ sqliteFile: installation.sqliteFile });
  try {
    await sql.run(
      "update extensions set manifest = json_set(manifest, '$.author', $1) where id = 'local-health'",
      [author],
    );
  } finally {
    await sql.close();
  }

  const text = await runCli(['extension', 'list', ...config()]);
  expect(text.code).toBe(0);
  expect(text.stdout).not.toMatch(unsafe);
  expect(text.stdout).toContain('evil \\u001b]0;owned\\u0007 \\u009b2J \\u202ereversed \\u007f');

  const json = await runCli(['extension', 'list', ...config(), '--json']);
  expect(json.stdout).not.toMatch(unsafe);
  expect(JSON.parse(json.stdout).extensions[0].author).toBe(author);
});
