/**
 * @module The desktop session's D-Bus through `@homebridge/dbus-native` (pure JavaScript, no
 * native code): connecting with a clear error when there is no bus, and promise wrappers for the
 * few bus calls the tray (and its tests) make.
 */
import type { EventEmitter } from 'node:events';
import dbusNative from '@homebridge/dbus-native';
import { TrayUnavailable } from './tray-unavailable.js';

/** A method call as dbus-native takes it; a variant is written `[signature, value]`. */
interface MethodCall {
  destination: string;
  path: string;
  interface: string;
  member: string;
  signature?: string;
  body?: unknown[];
}

/** dbus-native's description of an exported interface: methods `[in, out]`, signals `[signature]`. */
export interface InterfaceDescription {
  name: string;
  methods: Record<string, [string, string]>;
  properties: Record<string, string>;
  signals: Record<string, [string]>;
}

export interface ReceivedMessage {
  type: number;
  member?: string;
  interface?: string;
  path?: string;
  sender?: string;
  body?: unknown[];
}

interface NativeBus {
  connection: EventEmitter & { end(): void };
  invoke(
    message: MethodCall,
    callback: (error: { name: string; message: string } | null, ...values: unknown[]) => void,
  ): void;
  exportInterface(object: object, path: string, description: InterfaceDescription): void;
}

interface NativeModule {
  createClient(options: { socket?: string; host?: string; port?: number }): NativeBus;
}

const signalMessageType = 4;
/** `RequestName` flag DO_NOT_QUEUE and the answer "primary owner". */
const doNotQueue = 4;
const primaryOwner = 1;

/** The session bus address, or why there is none. */
export function sessionBusAddress(environment: NodeJS.ProcessEnv): string {
  const address = environment.DBUS_SESSION_BUS_ADDRESS;
  if (!address)
    throw new TrayUnavailable(
      'no desktop session bus: DBUS_SESSION_BUS_ADDRESS is not set (run `firewarden tray` inside a graphical session)',
    );
  return address;
}

type BusSocket = { socket: string } | { host: string; port: number };

/**
 * Where to connect for a bus address (D-Bus specification, "Server Addresses"): the first
 * `unix:path=` or `tcp:` entry, else the first `unix:abstract=` one. Abstract sockets are opened
 * here because dbus-native would need an optional native module for them; Node 20's socket layer
 * pads their names, so it reaches them only where libuv passes the name's length.
 */
function socketOf(address: string): BusSocket {
  let abstractSocket: BusSocket | null = null;
  for (const entry of address.split(';')) {
    const colon = entry.indexOf(':');
    const transport = entry.slice(0, colon);
    const params = new Map(
      entry
        .slice(colon + 1)
        .split(',')
        .map((pair) => [
          pair.slice(0, pair.indexOf('=')),
          decodeURIComponent(pair.slice(pair.indexOf('=') + 1)),
        ]),
    );
    const path = params.get('path');
    const abstract = params.get('abstract');
    if (transport === 'unix' && path) return { socket: path };
    if (transport === 'tcp' && params.get('port'))
      return { host: params.get('host') || 'localhost', port: Number(params.get('port')) };
    if (transport === 'unix' && abstract) abstractSocket ??= { socket: `\0${abstract}` };
  }
  if (abstractSocket) return abstractSocket;
  throw new TrayUnavailable(
    `the session bus address ${address} has no unix or tcp entry this client can open`,
  );
}

/** What to add when an abstract socket could not be reached (see socketOf). */
function abstractHint(socket: BusSocket): string {
  return 'socket' in socket && socket.socket.startsWith('\0')
    ? `; this Node (${process.version}) may not reach abstract sockets, start the tray with a unix:path= bus address such as the systemd user bus (unix:path=$XDG_RUNTIME_DIR/bus)`
    : '';
}

export class SessionBus {
  private constructor(private readonly native: NativeBus) {}

  /** Connects and completes the bus handshake, or throws TrayUnavailable saying why not. */
  static async connect(address: string, timeoutMs = 5_000): Promise<SessionBus> {
    const socket = socketOf(address);
    const native = (dbusNative as unknown as NativeModule).createClient(socket);
    const bus = new SessionBus(native);
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        bus.call({
          destination: 'org.freedesktop.DBus',
          path: '/org/freedesktop/DBus',
          interface: 'org.freedesktop.DBus',
          member: 'GetId',
        }),
        new Promise((_, reject) => {
          native.connection.once('error', reject);
          timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
        }),
      ]);
    } catch (error) {
      native.connection.end();
      throw new TrayUnavailable(
        `the desktop session bus at ${address} cannot be reached (${(error as Error).message.replaceAll('\0', '@')})${abstractHint(socket)}`,
      );
    } finally {
      clearTimeout(timer);
    }
    return bus;
  }

  /** The reply's values; a D-Bus error rejects with its name and text. */
  call(message: MethodCall): Promise<unknown[]> {
    return new Promise((resolve, reject) => {
      this.native.invoke(message, (error, ...values) => {
        if (error) reject(new Error(`${error.name}: ${error.message}`));
        else resolve(values);
      });
    });
  }

  private callBus(member: string, signature: string, body: unknown[]): Promise<unknown[]> {
    return this.call({
      destination: 'org.freedesktop.DBus',
      path: '/org/freedesktop/DBus',
      interface: 'org.freedesktop.DBus',
      member,
      signature,
      body,
    });
  }

  async nameHasOwner(name: string): Promise<boolean> {
    const [owned] = await this.callBus('NameHasOwner', 's', [name]);
    return owned === true;
  }

  /** Takes `name` or throws: another process holding it is an error, not a queue to wait in. */
  async requestName(name: string): Promise<void> {
    const [answer] = await this.callBus('RequestName', 'su', [name, doNotQueue]);
    if (answer !== primaryOwner) throw new Error(`the bus name ${name} is taken`);
  }

  async releaseName(name: string): Promise<void> {
    await this.callBus('ReleaseName', 's', [name]);
  }

  async addMatch(rule: string): Promise<void> {
    await this.callBus('AddMatch', 's', [rule]);
  }

  /**
   * Serves `object` at `path`: its methods, its fields as properties (Get/GetAll), and its
   * `emit(signal, ...args)` as D-Bus signals.
   */
  exportObject(path: string, description: InterfaceDescription, object: object): void {
    this.native.exportInterface(object, path, description);
  }

  /** Signals (after a matching `addMatch` for broadcast ones). */
  onSignal(listener: (message: ReceivedMessage) => void): void {
    this.native.connection.on('message', (message: ReceivedMessage) => {
      if (message.type === signalMessageType) listener(message);
    });
  }

  /** Called once when the bus connection ends or fails after connecting. */
  onClose(listener: (reason: string) => void): void {
    let closed = false;
    const once = (reason: string) => {
      if (closed) return;
      closed = true;
      listener(reason);
    };
    this.native.connection.on('error', (error: Error) => once(error.message));
    this.native.connection.on('end', () => once('the bus closed the connection'));
  }

  close(): void {
    this.native.connection.end();
  }
}
