/**
 * @module Tests: an update that changes what a grant lets the server read ends the grant and asks
 * again: another URL for an `http.local` widget, one more widget, another metric. An update that
 * changes only the version or a title keeps every grant. Through the bin.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { createInstallation, type Installation } from '../support/installation.js';
import { onTerminal } from '../support/on-terminal.js';
import { runCli } from '../support/running-bin.js';
import { exampleDir, exampleVariant } from './support/example-variant.js';

const exampleUrl = 'http://127.0.0.1:9100/status.json';

let installation: Installation;
const config = () => ['--config', installation.configFile];

/** The example as version 1.1.0 with `replace` applied. */
const variant = (name: string, replace: (text: string) => string) =>
  exampleVariant(installation.dir, name, (text) => replace(text.replace('version: 1.0.0', 'version: 1.1.0')));

async function granted(): Promise<string[]> {
  const result = await runCli(['extension', 'list', ...config(), '--json']);
  return JSON.parse(result.stdout).extensions[0].granted;
}

beforeAll(async () => {
  installation = (await createInstallation('sqlite'))!;
});
afterAll(async () => {
  await installation.remove();
});
beforeEach(async () => {
  await runCli(['extension', 'remove', 'local-health', ...config()]);
  expect((await runCli(['extension', 'install', exampleDir, ...config(), '--yes'])).code).toBe(0);
  expect(await granted()).toEqual(['dashboard.widget', 'events.read']);
});

describe('updating an extension', () => {
  test('another widget URL ends the dashboard.widget grant; events.read, unchanged, stays', async () => {
    const otherUrl = await variant('other-url', (t) =>
      t.replace(exampleUrl, 'http://127.0.0.1:8200/v1/auth/token/lookup-self'),
    );
    const result = await runCli(['extension', 'install', otherUrl, ...config(), '--json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      extension: { version: '1.1.0', previous_version: '1.0.0' },
      granted: ['events.read'],
      denied: ['dashboard.widget'],
    });
    expect(await granted()).toEqual(['events.read']);
  });

  test('on a terminal the changed grant is asked again, the unchanged one is not', async () => {
    const otherUrl = await variant('other-url-asked', (t) =>
      t.replace(exampleUrl, 'http://127.0.0.1:9101/x'),
    );
    const shown = await onTerminal(['extension', 'install', otherUrl, ...config()], 'y\n');
    expect(shown).toContain('Grant dashboard.widget (show its widgets on the dashboard)? [y/N]');
    expect(shown).not.toContain('Grant events.read');
    expect(await granted()).toEqual(['dashboard.widget', 'events.read']);
  });

  test('one more widget ends dashboard.widget; another metric ends events.read', async () => {
    const moreWidgets = await variant('more-widgets', (t) =>
      t.replace(
        'widgets:\n',
        'widgets:\n  - id: extra\n    title: Extra\n    kind: status\n    size: small\n    source: http.local\n    query:\n      url: http://localhost:5984/_config\n    refresh_seconds: 30\n',
      ),
    );
    expect((await runCli(['extension', 'install', moreWidgets, ...config()])).code).toBe(0);
    expect(await granted()).toEqual(['events.read']);

    const otherMetric = await variant('other-metric', (t) =>
      t.replace('metric: notifications.count', 'metric: app.version'),
    );
    expect(
      (await runCli(['extension', 'install', otherMetric, ...config(), '--grant', 'dashboard.widget'])).code,
    ).toBe(0);
    expect(await granted()).toEqual(['dashboard.widget']);
  });

  test('a new version with another title keeps every grant', async () => {
    const retitled = await variant('retitled', (t) =>
      t.replace('title: Local service status', 'title: Service status'),
    );
    const result = await runCli(['extension', 'install', retitled, ...config()]);
    expect(result.stdout).toContain('updated local-health 1.0.0 -> 1.1.0');
    expect(await granted()).toEqual(['dashboard.widget', 'events.read']);
  });
});
