/**
 * @module Tests: `firewarden tray` says why there is no tray icon, gives the web UI address of
 * the configuration and the service commands, and exits 3 (text and --json).
 */
import { expect, test } from 'vitest';
import { createInstallation } from '../support/installation.js';
import { runCli } from '../support/running-bin.js';

test('tray explains the missing tray, prints the URL to open, and exits 3', async () => {
  const installation = (await createInstallation('sqlite'))!;
  try {
    await installation.writeConfig({ server: { port: 7555 } });
    const text = await runCli(['tray', '--config', installation.configFile]);
    expect(text.code).toBe(3);
    expect(text.stdout).toContain('firewarden has no tray icon');
    expect(text.stdout).toContain('Open Web UI: http://127.0.0.1:7555/');
    const json = await runCli(['tray', '--config', installation.configFile, '--json']);
    expect(json.code).toBe(3);
    expect(JSON.parse(json.stdout)).toMatchObject({
      ok: false,
      error: { code: 'TRAY_UNAVAILABLE' },
      open_web_ui: 'http://127.0.0.1:7555/',
      restart: 'sudo systemctl restart firewarden-agent firewarden',
    });
  } finally {
    await installation.remove();
  }
});
