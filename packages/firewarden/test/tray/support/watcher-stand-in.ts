/**
 * @module Test support: the tray host's side, a client of the test bus that owns
 * `org.kde.StatusNotifierWatcher` and records every RegisterStatusNotifierItem call (the service
 * name given and the caller's unique name).
 */
import { SessionBus } from '../../../src/tray/session-bus.js';

export interface Registration {
  service: string;
  sender: string;
}

export interface WatcherStandIn {
  registrations: Registration[];
  close(): void;
}

/**
 * With `refuse`, every registration is answered with a D-Bus error (a host that rejects the item);
 * `hostRegistered: false` is a watcher no panel has registered with yet.
 */
export async function startWatcherStandIn(
  address: string,
  options: { refuse?: boolean; hostRegistered?: boolean } = {},
): Promise<WatcherStandIn> {
  const bus = await SessionBus.connect(address);
  const registrations: Registration[] = [];
  const watcher = {
    IsStatusNotifierHostRegistered: options.hostRegistered ?? true,
    ProtocolVersion: 0,
    get RegisteredStatusNotifierItems() {
      return registrations.map((registration) => registration.service);
    },
    RegisterStatusNotifierItem(service: string, message: { sender: string }) {
      registrations.push({ service, sender: message.sender });
      return options.refuse ? new Error('registration refused by the stand-in') : undefined;
    },
    RegisterStatusNotifierHost() {},
  };
  bus.exportObject(
    '/StatusNotifierWatcher',
    {
      name: 'org.kde.StatusNotifierWatcher',
      methods: { RegisterStatusNotifierItem: ['s', ''], RegisterStatusNotifierHost: ['s', ''] },
      properties: {
        IsStatusNotifierHostRegistered: 'b',
        ProtocolVersion: 'i',
        RegisteredStatusNotifierItems: 'as',
      },
      signals: {},
    },
    watcher,
  );
  await bus.requestName('org.kde.StatusNotifierWatcher');
  return { registrations, close: () => bus.close() };
}
