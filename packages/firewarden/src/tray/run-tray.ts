/**
 * @module `firewarden tray`'s life: connect to the session bus, find the tray host (the owner of
 * `org.kde.StatusNotifierWatcher`), serve the item and its menu under a per-process bus name,
 * register with the host (again whenever the host restarts), refresh the tooltip, and end on
 * Quit, SIGINT/SIGTERM or the bus closing.
 */
import type { ServiceStatus } from '../lifecycle/init-system.js';
import { DbusMenu, dbusMenuInterface, type MenuEntry, menuPath } from './dbus-menu.js';
import { type FirewallReading, readFirewallState, trayView } from './firewall-state.js';
import { SessionBus } from './session-bus.js';
import { itemPath, StatusNotifierItem, statusNotifierItemInterface } from './status-notifier-item.js';
import { controlServices, openWebUi, type ServiceAction, serviceControlUnavailable } from './tray-actions.js';
import { TrayUnavailable } from './tray-unavailable.js';

const watcherName = 'org.kde.StatusNotifierWatcher';

interface TrayOptions {
  busAddress: string;
  webUiUrl: string;
  agentSocket: string;
  initSystem: ServiceStatus['init_system'];
  /** One line for the person who started the tray (stdout). */
  say: (line: string) => void;
  /** A failed action or refresh (stderr); the tray keeps running. */
  warn: (line: string) => void;
}

/** The countdown ticks every second; the agent (which reads the kernel's rules) every 5 s. */
const tickMs = 1_000;
const ticksPerAgentRead = 5;

const menuIds = { openWebUi: 1, restart: 2, stop: 3, quit: 4 } as const;

/** Resolves when the tray ends; throws TrayUnavailable when there is no bus or no tray host. */
export async function runTray(options: TrayOptions): Promise<void> {
  const bus = await SessionBus.connect(options.busAddress);
  try {
    await serveTray(bus, options);
  } finally {
    // Closed on every way out, a failed set-up included: an open connection would keep the process alive.
    bus.close();
  }
}

async function serveTray(bus: SessionBus, options: TrayOptions): Promise<void> {
  let finish: () => void = () => {};
  const ended = new Promise<void>((resolve) => {
    finish = resolve;
  });
  let closedBy: string | null = null;
  bus.onClose((reason) => {
    closedBy = reason;
    finish();
  });
  if (!(await bus.nameHasOwner(watcherName)))
    throw new TrayUnavailable(
      `no tray host on the session bus: nothing owns ${watcherName} (a StatusNotifierItem host is needed: KDE Plasma, GNOME with the AppIndicator extension, waybar, ...)`,
    );

  const report = (what: string) => (error: unknown) =>
    options.warn(`${what} failed: ${error instanceof Error ? error.message : String(error)}`);
  const open = () => void openWebUi(options.webUiUrl).catch(report('Open Web UI'));
  const serviceBlocked = serviceControlUnavailable(options.initSystem);
  const serviceEntry = (id: number, label: string, iconName: string, action: ServiceAction): MenuEntry => ({
    id,
    label: serviceBlocked ? `${label} (${serviceBlocked})` : label,
    iconName,
    enabled: serviceBlocked === null,
    run: () => {
      // One service action at a time: both entries are greyed out until systemctl answers.
      menu.setEnabled([menuIds.restart, menuIds.stop], false);
      controlServices(action)
        .catch(report(label))
        .finally(() => menu.setEnabled([menuIds.restart, menuIds.stop], true));
    },
  });
  const menu: DbusMenu = new DbusMenu([
    { id: menuIds.openWebUi, label: 'Open Web UI', iconName: 'web-browser', enabled: true, run: open },
    serviceEntry(menuIds.restart, 'Restart', 'view-refresh', 'restart'),
    serviceEntry(menuIds.stop, 'Stop', 'process-stop', 'stop'),
    { id: menuIds.quit, label: 'Quit', iconName: 'application-exit', enabled: true, run: () => finish() },
  ]);
  const item = new StatusNotifierItem(menuPath, open);

  let reading: FirewallReading = await readFirewallState(options.agentSocket);
  item.show(trayView(reading, Date.now()));
  bus.exportObject(itemPath, statusNotifierItemInterface, item);
  bus.exportObject(menuPath, dbusMenuInterface, menu);

  // The protocol's name for an item: org.kde.StatusNotifierItem-<pid>-<instance>.
  const itemName = `org.kde.StatusNotifierItem-${process.pid}-1`;
  await bus.requestName(itemName);
  const register = () =>
    bus.call({
      destination: watcherName,
      path: '/StatusNotifierWatcher',
      interface: watcherName,
      member: 'RegisterStatusNotifierItem',
      signature: 's',
      body: [itemName],
    });
  await register();
  if (!(await hostRegistered(bus)))
    options.warn(
      `${watcherName} has no StatusNotifierHost registered yet: the icon shows once a tray host (a panel) registers`,
    );
  menu.announce();
  await bus.addMatch(
    `type='signal',sender='org.freedesktop.DBus',member='NameOwnerChanged',arg0='${watcherName}'`,
  );
  bus.onSignal((message) => {
    const [name, , newOwner] = (message.body ?? []) as string[];
    if (message.member === 'NameOwnerChanged' && name === watcherName && newOwner)
      register().catch(report('registering with the new tray host'));
  });
  options.say(`firewarden tray: ${itemName} registered with the tray host (${options.webUiUrl})`);

  let ticks = 0;
  let readingInFlight = false;
  const timer = setInterval(() => {
    ticks += 1;
    item.show(trayView(reading, Date.now()));
    if (ticks % ticksPerAgentRead !== 0 || readingInFlight) return;
    readingInFlight = true;
    readFirewallState(options.agentSocket)
      .then((next) => {
        reading = next;
        item.show(trayView(reading, Date.now()));
      })
      .catch(report('reading the firewall state'))
      .finally(() => {
        readingInFlight = false;
      });
  }, tickMs);

  const onSignal = () => finish();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  await ended;
  clearInterval(timer);
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
  if (closedBy !== null) throw new Error(`the session bus connection ended (${closedBy})`);
  // The name goes with the connection anyway; releasing first tells the host at once.
  await bus.releaseName(itemName).catch(() => {});
}

/**
 * The watcher's `IsStatusNotifierHostRegistered`: a watcher may run with no host to draw the items
 * (a standalone watcher before the panel starts). An answer that cannot be read counts as yes.
 */
async function hostRegistered(bus: SessionBus): Promise<boolean> {
  try {
    const [variant] = await bus.call({
      destination: watcherName,
      path: '/StatusNotifierWatcher',
      interface: 'org.freedesktop.DBus.Properties',
      member: 'Get',
      signature: 'ss',
      body: [watcherName, 'IsStatusNotifierHostRegistered'],
    });
    // dbus-native reads a variant as `[signature, [value]]`.
    return (variant as [unknown, [unknown]])[1][0] !== false;
  } catch {
    return true;
  }
}
