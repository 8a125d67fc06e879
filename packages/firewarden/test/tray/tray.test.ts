/**
 * @module Tests: `firewarden tray` (the bin from dist/) against a real `dbus-daemon --session` and
 * a watcher stand-in owning org.kde.StatusNotifierWatcher: it registers its item, serves the
 * StatusNotifierItem properties (tooltip with the agent's state and a safe apply's countdown,
 * refreshed with NewToolTip), a dbusmenu of four entries, and each click runs the exact command
 * (`xdg-open` and `systemctl` are recording stand-ins on PATH). Restart and Stop run under a
 * systemd marker in a private mount namespace, and are disabled without systemd.
 */
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, expect, test, vi } from 'vitest';
import { type ReceivedMessage, SessionBus } from '../../src/tray/session-bus.js';
import { createInstallation, type Installation } from '../support/installation.js';
import { type AgentStandIn, startAgentStandIn } from './support/agent-stand-in.js';
import { createRecordingCommands, type RecordingCommands } from './support/recording-commands.js';
import { type SessionBusDaemon, startSessionBus } from './support/session-bus-daemon.js';
import { startTray, type TrayProcess } from './support/tray-process.js';
import { startWatcherStandIn, type WatcherStandIn } from './support/watcher-stand-in.js';

const itemInterface = 'org.kde.StatusNotifierItem';
const menuInterface = 'com.canonical.dbusmenu';
const webUiUrl = 'http://127.0.0.1:7555/';

/** A variant as dbus-native reads it: `[signature tree, [value]]`. */
type ReadVariant = [unknown, [unknown]];
const variantValue = (variant: unknown) => (variant as ReadVariant)[1][0];
const propertiesOf = (pairs: unknown) =>
  Object.fromEntries(
    (pairs as [string, ReadVariant][]).map(([name, variant]) => [name, variantValue(variant)]),
  );

const pendingStatus = {
  backend: 'iptables',
  variant: 'nf_tables',
  owned_chains_present: true,
  read_only: false,
  pending_transaction: {
    transaction_id: 'tx-42',
    deadline: new Date(Date.now() + 10 * 60_000).toISOString(),
    rollback_failure: null,
  },
};

let installation: Installation;
let daemon: SessionBusDaemon;
let watcher: WatcherStandIn;
let client: SessionBus;
let commands: RecordingCommands;
let agent: AgentStandIn;
let tray: TrayProcess;
const signals: ReceivedMessage[] = [];

beforeAll(async () => {
  installation = (await createInstallation('sqlite'))!;
  await installation.writeConfig({ server: { port: 7555 } });
  daemon = await startSessionBus();
  watcher = await startWatcherStandIn(daemon.address);
  client = await SessionBus.connect(daemon.address);
  await client.addMatch(`type='signal',interface='${itemInterface}'`);
  await client.addMatch(`type='signal',interface='${menuInterface}'`);
  client.onSignal((message) => signals.push(message));
  commands = await createRecordingCommands(['xdg-open', 'systemctl']);
  agent = await startAgentStandIn(path.join(installation.dir, 'agent.sock'), pendingStatus);
});

afterAll(async () => {
  client?.close();
  watcher?.close();
  await agent?.close();
  await daemon?.stop();
  await commands?.remove();
  await installation?.remove();
});

let registered: number;
beforeEach(() => {
  registered = watcher.registrations.length;
  signals.length = 0;
});

afterEach(async () => {
  await tray?.stop();
});

/** Starts the tray and waits for its registration with the watcher; returns its bus name. */
async function startRegisteredTray(systemd: boolean, binDir = commands.binDir): Promise<string> {
  tray = startTray(
    ['--config', installation.configFile],
    { DBUS_SESSION_BUS_ADDRESS: daemon.address, PATH: `${binDir}:${process.env.PATH}` },
    { systemd },
  );
  await vi.waitFor(
    () => {
      if (watcher.registrations.length <= registered) throw new Error(`not registered yet: ${tray.stderr()}`);
    },
    { timeout: 15_000, interval: 50 },
  );
  return watcher.registrations[registered]!.service;
}

function call(
  destination: string,
  objectPath: string,
  iface: string,
  member: string,
  signature = '',
  body: unknown[] = [],
) {
  return client.call({
    destination,
    path: objectPath,
    interface: iface,
    member,
    ...(signature ? { signature } : {}),
    body,
  });
}

const getAll = async (item: string) =>
  propertiesOf(
    (
      await call(item, '/StatusNotifierItem', 'org.freedesktop.DBus.Properties', 'GetAll', 's', [
        itemInterface,
      ])
    )[0],
  );

const click = (item: string, id: number) =>
  call(item, '/MenuBar', menuInterface, 'Event', 'isvu', [id, 'clicked', ['s', ''], 0]);

async function menuEntries(item: string) {
  const [revision, [rootId, , children]] = (await call(item, '/MenuBar', menuInterface, 'GetLayout', 'iias', [
    0,
    -1,
    [],
  ])) as [number, [number, unknown, unknown[]]];
  expect(revision).toBeGreaterThan(0);
  expect(rootId).toBe(0);
  return children.map((child) => {
    const [id, properties] = variantValue(child) as [number, unknown, unknown[]];
    return { id, ...propertiesOf(properties) } as { id: number; label: string; enabled: boolean };
  });
}

async function recordedAfter(count: number, recording = commands): Promise<string[][]> {
  let recorded: string[][] = [];
  await vi.waitFor(
    async () => {
      recorded = await recording.recorded();
      if (recorded.length < count) throw new Error(`${recorded.length} commands recorded: ${tray.stderr()}`);
    },
    { timeout: 15_000, interval: 50 },
  );
  return recorded;
}

test('the item registers, shows the firewall state and countdown, refreshes the tooltip, and each entry runs its command', async () => {
  const item = await startRegisteredTray(true);
  expect(item).toMatch(/^org\.kde\.StatusNotifierItem-\d+-1$/);
  // The tray prints its line once the watcher's answer is back, which may come after the watcher saw the call.
  await vi.waitFor(
    () => expect(tray.stdout()).toContain(`${item} registered with the tray host (${webUiUrl})`),
    {
      timeout: 15_000,
      interval: 50,
    },
  );
  // Registered under the name its own connection owns.
  const [owner] = await call(
    'org.freedesktop.DBus',
    '/org/freedesktop/DBus',
    'org.freedesktop.DBus',
    'GetNameOwner',
    's',
    [item],
  );
  expect(watcher.registrations.at(-1)!.sender).toBe(owner);

  const properties = await getAll(item);
  expect(properties).toMatchObject({
    Category: 'SystemServices',
    Id: 'firewarden',
    Title: 'firewarden',
    Status: 'NeedsAttention',
    IconName: 'security-medium',
    ItemIsMenu: false,
    Menu: '/MenuBar',
  });
  const [toolTipIcon, , toolTipTitle, toolTipText] = properties.ToolTip as [string, unknown, string, string];
  expect([toolTipIcon, toolTipTitle]).toEqual(['security-medium', 'firewarden']);
  expect(toolTipText).toMatch(
    /^Firewall: iptables \(nf_tables\), firewarden rules loaded\nSafe apply tx-42 pending: rolls back in (9|10):\d\d unless confirmed$/,
  );
  const [status] = await call(item, '/StatusNotifierItem', 'org.freedesktop.DBus.Properties', 'Get', 'ss', [
    itemInterface,
    'Status',
  ]);
  expect(variantValue(status)).toBe('NeedsAttention');

  // The safe apply is confirmed: the next reading of the agent changes the tooltip, announced by NewToolTip.
  agent.setStatus({ ...pendingStatus, pending_transaction: null });
  await vi.waitFor(
    async () => {
      expect(signals.some((signal) => signal.member === 'NewStatus' && signal.body?.[0] === 'Active')).toBe(
        true,
      );
      expect(signals.some((signal) => signal.member === 'NewToolTip')).toBe(true);
    },
    { timeout: 15_000, interval: 100 },
  );
  const refreshed = await getAll(item);
  expect(refreshed.Status).toBe('Active');
  expect(refreshed.IconName).toBe('security-high');
  expect((refreshed.ToolTip as string[])[3]).toBe(
    'Firewall: iptables (nf_tables), firewarden rules loaded\nNo safe apply pending',
  );

  const entries = await menuEntries(item);
  expect(entries.map(({ label, enabled }) => ({ label, enabled }))).toEqual([
    { label: 'Open Web UI', enabled: true },
    { label: 'Restart', enabled: true },
    { label: 'Stop', enabled: true },
    { label: 'Quit', enabled: true },
  ]);
  const idOf = (label: string) => entries.find((entry) => entry.label === label)!.id;
  const [groupEntry] = (
    await call(item, '/MenuBar', menuInterface, 'GetGroupProperties', 'aias', [[idOf('Stop')], ['label']])
  )[0] as [number, unknown][];
  expect([groupEntry![0], propertiesOf(groupEntry![1])]).toEqual([idOf('Stop'), { label: 'Stop' }]);
  expect((await call(item, '/MenuBar', menuInterface, 'AboutToShow', 'i', [0]))[0]).toBe(false);

  await click(item, idOf('Open Web UI'));
  expect(await recordedAfter(1)).toEqual([['xdg-open', webUiUrl]]);
  await click(item, idOf('Restart'));
  expect(await recordedAfter(2)).toEqual([
    ['xdg-open', webUiUrl],
    ['systemctl', 'restart', 'firewarden.service', 'firewarden-agent.service'],
  ]);
  // Restart and Stop were greyed out while systemctl ran, then enabled again.
  await vi.waitFor(
    () => {
      const updates = signals.filter((signal) => signal.member === 'ItemsPropertiesUpdated');
      expect(
        updates.map((signal) =>
          (signal.body![0] as [number, unknown][]).map(([id, p]) => [id, propertiesOf(p)]),
        ),
      ).toEqual([
        [
          [idOf('Restart'), { enabled: false }],
          [idOf('Stop'), { enabled: false }],
        ],
        [
          [idOf('Restart'), { enabled: true }],
          [idOf('Stop'), { enabled: true }],
        ],
      ]);
    },
    { timeout: 15_000, interval: 50 },
  );
  await click(item, idOf('Stop'));
  expect((await recordedAfter(3))[2]).toEqual([
    'systemctl',
    'stop',
    'firewarden.service',
    'firewarden-agent.service',
  ]);
  // A primary click on the icon opens the web UI too.
  await call(item, '/StatusNotifierItem', itemInterface, 'Activate', 'ii', [0, 0]);
  expect((await recordedAfter(4))[3]).toEqual(['xdg-open', webUiUrl]);

  await click(item, idOf('Quit'));
  expect(await tray.exited).toBe(0);
  expect(tray.stderr()).toBe('');
  const [stillOwned] = await call(
    'org.freedesktop.DBus',
    '/org/freedesktop/DBus',
    'org.freedesktop.DBus',
    'NameHasOwner',
    's',
    [item],
  );
  expect(stillOwned).toBe(false);
});

test('without systemd, Restart and Stop are disabled, say why, and a click runs nothing', async () => {
  const before = (await commands.recorded()).length;
  const item = await startRegisteredTray(false);
  const entries = await menuEntries(item);
  expect(entries.map(({ label, enabled }) => ({ label, enabled }))).toEqual([
    { label: 'Open Web UI', enabled: true },
    { label: 'Restart (needs systemd (init system here: none))', enabled: false },
    { label: 'Stop (needs systemd (init system here: none))', enabled: false },
    { label: 'Quit', enabled: true },
  ]);
  await click(item, entries[1]!.id);
  await click(item, entries[2]!.id);
  await click(item, entries[0]!.id);
  // The clicks are handled in order: once Open Web UI has run, Restart and Stop were ignored.
  expect((await recordedAfter(before + 1)).slice(before)).toEqual([['xdg-open', webUiUrl]]);
  await click(item, entries[3]!.id);
  expect(await tray.exited).toBe(0);
});

test('a failing systemctl is reported on stderr, Restart and Stop come back, and the tray keeps running', async () => {
  const refusing = await createRecordingCommands(['xdg-open', 'systemctl'], { failing: ['systemctl'] });
  try {
    const item = await startRegisteredTray(true, refusing.binDir);
    const entries = await menuEntries(item);
    await click(item, entries[1]!.id);
    await vi.waitFor(
      () => {
        expect(tray.stderr()).toMatch(
          /^firewarden tray: Restart failed: Command failed: systemctl restart firewarden\.service firewarden-agent\.service\nAccess denied\n/,
        );
      },
      { timeout: 15_000, interval: 50 },
    );
    await vi.waitFor(
      async () => {
        const [enabled] = (
          await call(item, '/MenuBar', menuInterface, 'GetGroupProperties', 'aias', [
            [entries[1]!.id, entries[2]!.id],
            ['enabled'],
          ])
        )[0] as [number, unknown][];
        expect(propertiesOf(enabled![1])).toEqual({ enabled: true });
      },
      { timeout: 15_000, interval: 50 },
    );
    await click(item, entries[0]!.id);
    expect(await recordedAfter(2, refusing)).toEqual([
      ['systemctl', 'restart', 'firewarden.service', 'firewarden-agent.service'],
      ['xdg-open', webUiUrl],
    ]);
    await click(item, entries[3]!.id);
    expect(await tray.exited).toBe(0);
  } finally {
    await refusing.remove();
  }
});

test('a tray host that restarts gets the item registered again', async () => {
  const item = await startRegisteredTray(false);
  watcher.close();
  watcher = await startWatcherStandIn(daemon.address);
  await vi.waitFor(
    () => {
      expect(watcher.registrations.map((registration) => registration.service)).toEqual([item]);
    },
    { timeout: 15_000, interval: 50 },
  );
  registered = 0;
  const entries = await menuEntries(item);
  await click(item, entries[3]!.id);
  expect(await tray.exited).toBe(0);
});

test('a tray host refusing the registration ends the tray with the error and exit 1', async () => {
  watcher.close();
  watcher = await startWatcherStandIn(daemon.address, { refuse: true });
  registered = 0;
  await startRegisteredTray(false);
  expect(await tray.exited).toBe(1);
  expect(tray.stderr()).toBe(
    'firewarden: org.freedesktop.DBus.Error.Failed: registration refused by the stand-in\n',
  );
});
