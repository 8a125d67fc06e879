/**
 * @module The tray's menu: a `com.canonical.dbusmenu` object (the menu protocol
 * StatusNotifierItem hosts read from the item's `Menu` path). A flat list of entries under the
 * root (id 0); a click (`Event(id, 'clicked')`) runs the entry's action when it is enabled.
 */
import { EventEmitter } from 'node:events';
import type { InterfaceDescription } from './session-bus.js';

export const menuPath = '/MenuBar';

export const dbusMenuInterface: InterfaceDescription = {
  name: 'com.canonical.dbusmenu',
  methods: {
    GetLayout: ['iias', 'u(ia{sv}av)'],
    GetGroupProperties: ['aias', 'a(ia{sv})'],
    GetProperty: ['is', 'v'],
    Event: ['isvu', ''],
    EventGroup: ['a(isvu)', 'ai'],
    AboutToShow: ['i', 'b'],
    AboutToShowGroup: ['ai', 'aiai'],
  },
  properties: { Version: 'u', TextDirection: 's', Status: 's', IconThemePath: 'as' },
  signals: {
    ItemsPropertiesUpdated: ['a(ia{sv})a(ias)'],
    LayoutUpdated: ['ui'],
    ItemActivationRequested: ['iu'],
  },
};

export interface MenuEntry {
  id: number;
  label: string;
  iconName: string;
  enabled: boolean;
  /** Runs on a click; reports its own failures. */
  run: () => void;
}

type Variant = [string, unknown];
type Properties = [string, Variant][];

const rootId = 0;

function invalidId(id: number): Error {
  return Object.assign(new Error(`no menu item ${id}`), {
    dbusName: 'com.canonical.dbusmenu.Error.InvalidId',
  });
}

/** Method and property names are the protocol's: dbus-native serves the object as it is. */
export class DbusMenu extends EventEmitter {
  readonly Version = 3;
  readonly TextDirection = 'ltr';
  readonly Status = 'normal';
  readonly IconThemePath: string[] = [];
  /** The entries never change, only their properties: one layout revision. */
  private readonly revision = 1;

  constructor(private readonly entries: MenuEntry[]) {
    super();
  }

  private entry(id: number): MenuEntry | undefined {
    return this.entries.find((entry) => entry.id === id);
  }

  private properties(id: number, names: string[]): Properties {
    const entry = this.entry(id);
    const all: Properties = entry
      ? [
          ['type', ['s', 'standard']],
          ['label', ['s', entry.label]],
          ['icon-name', ['s', entry.iconName]],
          ['enabled', ['b', entry.enabled]],
          ['visible', ['b', true]],
        ]
      : [['children-display', ['s', 'submenu']]];
    return names.length === 0 ? all : all.filter(([name]) => names.includes(name));
  }

  private layout(id: number, depth: number, names: string[]): [number, Properties, Variant[]] {
    const children =
      id === rootId && depth !== 0
        ? this.entries.map((entry): Variant => ['(ia{sv}av)', this.layout(entry.id, depth - 1, names)])
        : [];
    return [id, this.properties(id, names), children];
  }

  GetLayout(parentId: number, recursionDepth: number, propertyNames: string[]) {
    if (parentId !== rootId && !this.entry(parentId)) return invalidId(parentId);
    return [this.revision, this.layout(parentId, recursionDepth, propertyNames)];
  }

  GetGroupProperties(ids: number[], propertyNames: string[]) {
    const wanted = ids.length === 0 ? this.entries.map((entry) => entry.id) : ids;
    return wanted
      .filter((id) => id === rootId || this.entry(id))
      .map((id) => [id, this.properties(id, propertyNames)]);
  }

  GetProperty(id: number, name: string) {
    const found = this.properties(id, [name])[0];
    if (!found) return invalidId(id);
    return found[1];
  }

  Event(id: number, eventId: string) {
    const entry = this.entry(id);
    if (id !== rootId && !entry) return invalidId(id);
    if (eventId === 'clicked' && entry?.enabled) entry.run();
    return undefined;
  }

  /** Returns the ids that do not exist (the others' events are delivered). */
  EventGroup(events: [number, string, unknown, number][]) {
    const unknown: number[] = [];
    for (const [id, eventId] of events) if (this.Event(id, eventId) instanceof Error) unknown.push(id);
    return unknown;
  }

  /** The menu never changes on opening: nothing to update. */
  AboutToShow(id: number) {
    if (id !== rootId && !this.entry(id)) return invalidId(id);
    return false;
  }

  AboutToShowGroup(ids: number[]) {
    return [[], ids.filter((id) => id !== rootId && !this.entry(id))];
  }

  /** Enables or disables entries (while a service action runs) and tells the host. */
  setEnabled(ids: number[], enabled: boolean): void {
    const changed = this.entries.filter((entry) => ids.includes(entry.id) && entry.enabled !== enabled);
    if (changed.length === 0) return;
    for (const entry of changed) entry.enabled = enabled;
    this.emit(
      'ItemsPropertiesUpdated',
      changed.map((entry) => [entry.id, [['enabled', ['b', enabled]]]]),
      [],
    );
  }

  /** Announces the layout once the menu is on the bus, so a host that read it early reads it again. */
  announce(): void {
    this.emit('LayoutUpdated', this.revision, rootId);
  }
}
