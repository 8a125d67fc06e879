/**
 * @module Tests: `firewarden tray` where no tray can be shown exits 3 with a clear reason (text
 * and --json): no DBUS_SESSION_BUS_ADDRESS, a bus address nothing listens on, and a real session
 * bus on which nothing owns org.kde.StatusNotifierWatcher. A watcher with no host registered yet
 * gets the item all the same, and the tray says the icon waits for a host.
 */
import path from 'node:path';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { createInstallation, type Installation } from '../support/installation.js';
import { runCli } from '../support/running-bin.js';
import { type SessionBusDaemon, startSessionBus } from './support/session-bus-daemon.js';
import { startTray } from './support/tray-process.js';
import { startWatcherStandIn } from './support/watcher-stand-in.js';

let installation: Installation;
let daemon: SessionBusDaemon;

beforeAll(async () => {
  installation = (await createInstallation('sqlite'))!;
  daemon = await startSessionBus();
});

afterAll(async () => {
  await daemon?.stop();
  await installation?.remove();
});

test('without a session bus address, tray says so and exits 3', async () => {
  const text = await runCli(['tray', '--config', installation.configFile], {
    DBUS_SESSION_BUS_ADDRESS: undefined,
  });
  expect(text.code).toBe(3);
  expect(text.stderr).toBe(
    'firewarden: no desktop session bus: DBUS_SESSION_BUS_ADDRESS is not set (run `firewarden tray` inside a graphical session)\n',
  );
  const json = await runCli(['tray', '--config', installation.configFile, '--json'], {
    DBUS_SESSION_BUS_ADDRESS: undefined,
  });
  expect(json.code).toBe(3);
  expect(JSON.parse(json.stdout)).toMatchObject({ ok: false, error: { code: 'TRAY_UNAVAILABLE' } });
});

test('with a session bus address nothing listens on, tray says it cannot reach it and exits 3', async () => {
  const address = `unix:path=${path.join(installation.dir, 'no-bus-here')}`;
  const result = await runCli(['tray', '--config', installation.configFile], {
    DBUS_SESSION_BUS_ADDRESS: address,
  });
  expect(result.code).toBe(3);
  expect(result.stderr).toContain(`firewarden: the desktop session bus at ${address} cannot be reached`);
});

test('on a session bus without a tray host, tray names the missing watcher and exits 3', async () => {
  const result = await runCli(['tray', '--config', installation.configFile], {
    DBUS_SESSION_BUS_ADDRESS: daemon.address,
  });
  expect(result.code).toBe(3);
  expect(result.stderr).toBe(
    'firewarden: no tray host on the session bus: nothing owns org.kde.StatusNotifierWatcher (a StatusNotifierItem host is needed: KDE Plasma, GNOME with the AppIndicator extension, waybar, ...)\n',
  );
});

test('a unix:path= entry is preferred to an abstract one, and an unreachable abstract socket is named readably', async () => {
  const both = await runCli(['tray', '--config', installation.configFile], {
    DBUS_SESSION_BUS_ADDRESS: `unix:abstract=firewarden-no-such-bus;${daemon.address}`,
  });
  expect(both.code).toBe(3);
  expect(both.stderr).toContain(
    'firewarden: no tray host on the session bus: nothing owns org.kde.StatusNotifierWatcher',
  );
  const abstractOnly = await runCli(['tray', '--config', installation.configFile], {
    DBUS_SESSION_BUS_ADDRESS: 'unix:abstract=firewarden-no-such-bus',
  });
  expect(abstractOnly.code).toBe(3);
  expect(abstractOnly.stderr).toContain(
    'firewarden: the desktop session bus at unix:abstract=firewarden-no-such-bus cannot be reached (connect ECONNREFUSED @firewarden-no-such-bus)',
  );
  expect(abstractOnly.stderr).toContain(
    'start the tray with a unix:path= bus address such as the systemd user bus',
  );
  expect(abstractOnly.stderr).not.toContain('\0');
});

test('with a watcher no tray host has registered with, tray registers and says the icon waits for one', async () => {
  const watcher = await startWatcherStandIn(daemon.address, { hostRegistered: false });
  const tray = startTray(
    ['--config', installation.configFile],
    { DBUS_SESSION_BUS_ADDRESS: daemon.address },
    { systemd: false },
  );
  try {
    const warning =
      'firewarden tray: org.kde.StatusNotifierWatcher has no StatusNotifierHost registered yet: the icon shows once a tray host (a panel) registers\n';
    // stdout and stderr are two pipes: wait for both lines, in whichever order they arrive.
    await vi.waitFor(
      () => {
        if (!tray.stdout().includes('registered') || !tray.stderr().includes(warning))
          throw new Error(`not registered and warned yet: ${tray.stderr()}`);
      },
      { timeout: 15_000, interval: 50 },
    );
    expect(watcher.registrations).toHaveLength(1);
    expect(tray.stderr()).toBe(warning);
  } finally {
    await tray.stop();
    watcher.close();
  }
});
