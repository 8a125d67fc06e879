/**
 * @module Tests: `firewarden extension install|list|remove` through the bin: the example
 * extension installed with grants from --grant, --yes and TTY prompts; every manifest error path
 * reported with its key path; min_app against the app version; capabilities never grantable;
 * refusal without elevated rights; grants kept on update, dropped with an undeclared capability.
 */
import { execFile } from 'node:child_process';
import { chmod, cp } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createInstallation, type Installation } from '../support/installation.js';
import { onTerminal } from '../support/on-terminal.js';
import { childEnvironment, cliPath, runCli } from '../support/running-bin.js';
import { exampleDir, exampleVariant } from './support/example-variant.js';

let installation: Installation;
const config = () => ['--config', installation.configFile];

const variant = (name: string, replace: (text: string) => string) =>
  exampleVariant(installation.dir, name, replace);

async function listed() {
  const result = await runCli(['extension', 'list', ...config(), '--json']);
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout).extensions as { id: string; version: string; granted: string[] }[];
}

beforeAll(async () => {
  installation = (await createInstallation('sqlite'))!;
});
afterAll(async () => {
  await installation.remove();
});

describe('extension install, list, remove', () => {
  test('installs the example with every capability denied when nothing is granted', async () => {
    const result = await runCli(['extension', 'install', exampleDir, ...config()]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('installed local-health 1.0.0');
    expect(result.stdout).toContain('not granted: dashboard.widget, events.read');
    expect(await listed()).toMatchObject([{ id: 'local-health', version: '1.0.0', granted: [] }]);
    const text = await runCli(['extension', 'list', ...config()]);
    expect(text.stdout).toMatch(/^ID\s+VERSION\s+AUTHOR\s+WIDGETS\s+GRANTED\s+NOT GRANTED\n/);
    expect(text.stdout).toMatch(
      /local-health\s+1\.0\.0\s+firewarden examples\s+2\s+-\s+dashboard\.widget,events\.read/,
    );
  });

  test('--grant grants only the named capability; an update keeps it', async () => {
    const granted = await runCli([
      'extension',
      'install',
      exampleDir,
      ...config(),
      '--grant',
      'events.read',
      '--json',
    ]);
    expect(JSON.parse(granted.stdout)).toMatchObject({
      ok: true,
      granted: ['events.read'],
      denied: ['dashboard.widget'],
    });
    const newer = await variant('newer', (text) => text.replace('version: 1.0.0', 'version: 1.1.0'));
    const updated = await runCli(['extension', 'install', newer, ...config()]);
    expect(updated.stdout).toContain('updated local-health 1.0.0 -> 1.1.0');
    expect(await listed()).toMatchObject([{ version: '1.1.0', granted: ['events.read'] }]);
  });

  test('an update that no longer declares a capability drops its grant', async () => {
    const noEvents = await variant('no-events', (text) =>
      text.replace('  - events.read\n', '').replace(/ {2}- id: notifications[\s\S]*$/, ''),
    );
    const result = await runCli(['extension', 'install', noEvents, ...config(), '--json']);
    expect(result.code).toBe(0);
    expect(await listed()).toMatchObject([{ granted: [] }]);
  });

  test('--yes grants every declared capability', async () => {
    const result = await runCli(['extension', 'install', exampleDir, ...config(), '--yes', '--json']);
    expect(JSON.parse(result.stdout).granted).toEqual(['dashboard.widget', 'events.read']);
  });

  test('on a terminal it asks per capability and grants only the yes answers', async () => {
    await runCli(['extension', 'remove', 'local-health', ...config()]);
    const result = await onTerminal(['extension', 'install', exampleDir, ...config()], 'y\nn\n');
    expect(result).toContain('Grant dashboard.widget (show its widgets on the dashboard)? [y/N]');
    expect(result).toContain('Grant events.read');
    expect(await listed()).toMatchObject([{ granted: ['dashboard.widget'] }]);
  });

  test('--grant of a capability the manifest does not declare is refused', async () => {
    const result = await runCli(['extension', 'install', exampleDir, ...config(), '--grant', 'exec']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('--grant exec: not declared by local-health');
  });

  test('remove deletes the extension and its grants; an unknown id is an error', async () => {
    const removed = await runCli(['extension', 'remove', 'local-health', ...config()]);
    expect(removed.code).toBe(0);
    expect(removed.stdout).toContain('removed local-health');
    expect(await listed()).toEqual([]);
    const again = await runCli(['extension', 'remove', 'local-health', ...config(), '--json']);
    expect(again.code).toBe(1);
    expect(JSON.parse(again.stdout).error.code).toBe('EXTENSION_NOT_FOUND');
  });
});

describe('manifest validation', () => {
  const cases: [string, (text: string) => string, string][] = [
    ['a bad id', (t) => t.replace('id: local-health', 'id: Local_Health'), 'id: lower-case letters'],
    ['a missing name', (t) => t.replace('name: Local health\n', ''), 'name: Invalid input'],
    [
      'a non-semver version',
      (t) => t.replace('version: 1.0.0', 'version: "1.0"'),
      'version: must be a semantic version',
    ],
    [
      'a non-semver min_app',
      (t) => t.replace('min_app: 0.1.0', 'min_app: latest'),
      'min_app: must be a semantic version',
    ],
    ['an unknown key', (t) => `${t}homepage: https://example.org\n`, 'homepage: unknown key'],
    [
      'an unknown capability',
      (t) => t.replace('  - events.read', '  - events.read\n  - coffee.make'),
      'capabilities.2: unknown capability coffee.make',
    ],
    [
      'a never-grantable capability',
      (t) => t.replace('  - events.read', '  - events.read\n  - firewall.write'),
      'capabilities.2: firewall.write can never be granted',
    ],
    [
      'a capability twice',
      (t) => t.replace('  - events.read', '  - events.read\n  - events.read'),
      'capabilities.2: events.read is listed twice',
    ],
    [
      'a widget kind outside the list',
      (t) => t.replace('kind: status', 'kind: pie'),
      'widgets.0.kind: Invalid option',
    ],
    [
      'a widget size outside the list',
      (t) => t.replace('size: small', 'size: huge'),
      'widgets.0.size: Invalid option',
    ],
    [
      'an unknown source',
      (t) => t.replace('source: http.local', 'source: shell'),
      'widgets.0.source: Invalid discriminator value',
    ],
    [
      'an http.local URL off loopback',
      (t) => t.replace('http://127.0.0.1:9100', 'http://169.254.169.254'),
      'widgets.0.query.url: must be an http(s) URL on a loopback host',
    ],
    [
      'an http.local URL with another scheme',
      (t) => t.replace('http://127.0.0.1:9100/status.json', 'file:///etc/shadow'),
      'widgets.0.query.url',
    ],
    [
      'an unknown built-in metric',
      (t) => t.replace('metric: notifications.count', 'metric: users.passwords'),
      'widgets.1.query.metric: Invalid option',
    ],
    [
      'a refresh below 5 s',
      (t) => t.replace('refresh_seconds: 30', 'refresh_seconds: 1'),
      'widgets.0.refresh_seconds: Too small',
    ],
    [
      'a fractional refresh',
      (t) => t.replace('refresh_seconds: 30', 'refresh_seconds: 7.5'),
      'widgets.0.refresh_seconds',
    ],
    [
      'a widget id twice',
      (t) => t.replace('id: notifications', 'id: app-status'),
      'widgets.1.id: app-status is used twice',
    ],
    [
      'a widget whose capability is not declared',
      (t) => t.replace('  - events.read\n', ''),
      'widgets.1.source: needs capability events.read',
    ],
    ['not a mapping', () => '- just\n- a list\n', '(root): expected a mapping'],
    ['broken YAML', () => 'id: [unclosed\n', 'not valid YAML'],
  ];

  test.each(cases)('%s is refused with its key path (exit 2)', async (name, edit, message) => {
    const dir = await variant(name.replaceAll(' ', '-'), edit);
    const result = await runCli(['extension', 'install', dir, ...config()]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${path.join(dir, 'extension.yaml')}: `);
    expect(result.stderr).toContain(message);
    expect(await listed()).toEqual([]);
  });

  test('a folder without extension.yaml is refused', async () => {
    const result = await runCli(['extension', 'install', installation.dir, ...config(), '--json']);
    expect(result.code).toBe(2);
    expect(JSON.parse(result.stdout).error).toMatchObject({ code: 'EXTENSION_INVALID' });
    expect(JSON.parse(result.stdout).error.message).toContain('ENOENT');
  });

  test('min_app newer than this firewarden is refused, an older one accepted', async () => {
    const future = await variant('future', (t) => t.replace('min_app: 0.1.0', 'min_app: 99.0.0'));
    const result = await runCli(['extension', 'install', future, ...config(), '--json']);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout).error.code).toBe('EXTENSION_APP_TOO_OLD');
    expect(JSON.parse(result.stdout).error.message).toContain('needs firewarden 99.0.0 or newer');
    const past = await variant('past', (t) => t.replace('min_app: 0.1.0', 'min_app: 0.0.1'));
    expect((await runCli(['extension', 'install', past, ...config()])).code).toBe(0);
    await runCli(['extension', 'remove', 'local-health', ...config()]);
  });
});

describe('elevated rights', () => {
  test.skipIf(process.getuid?.() !== 0)(
    'an account that cannot write the data folder is refused before anything is read or written',
    async () => {
      // The installation folder stays root-only for writes; nobody may read the config to run at all.
      await chmod(installation.dir, 0o755);
      await chmod(installation.configFile, 0o644);
      const example = path.join(installation.dir, 'example-copy');
      await cp(exampleDir, example, { recursive: true });
      const result = await asNobody(['extension', 'install', example, ...config(), '--yes']);
      expect(result.code).toBe(4);
      expect(result.stderr).toContain(
        'needs elevated rights: run as root (sudo) or as an account that can write',
      );
      const remove = await asNobody(['extension', 'remove', 'local-health', ...config()]);
      expect(remove.code).toBe(4);
    },
  );
});

/** Runs the bin as the unprivileged `nobody` account. */
function asNobody(args: string[]): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      'setpriv',
      ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, cliPath, ...args],
      { env: childEnvironment() },
      (error, _stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stderr }),
    );
  });
}
