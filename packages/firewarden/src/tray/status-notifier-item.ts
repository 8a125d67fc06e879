/**
 * @module The tray icon itself: an `org.kde.StatusNotifierItem` object (the freedesktop
 * StatusNotifierItem protocol KDE Plasma, GNOME's AppIndicator extension, waybar and others
 * host). Its fields are the D-Bus properties; `show` changes them and emits the matching
 * New* signals so the host reads them again.
 */
import { EventEmitter } from 'node:events';
import type { TrayView } from './firewall-state.js';
import type { InterfaceDescription } from './session-bus.js';

export const itemPath = '/StatusNotifierItem';

export const statusNotifierItemInterface: InterfaceDescription = {
  name: 'org.kde.StatusNotifierItem',
  methods: {
    ContextMenu: ['ii', ''],
    Activate: ['ii', ''],
    SecondaryActivate: ['ii', ''],
    Scroll: ['is', ''],
  },
  properties: {
    Category: 's',
    Id: 's',
    Title: 's',
    Status: 's',
    WindowId: 'i',
    IconName: 's',
    IconPixmap: 'a(iiay)',
    OverlayIconName: 's',
    AttentionIconName: 's',
    AttentionIconPixmap: 'a(iiay)',
    ToolTip: '(sa(iiay)ss)',
    ItemIsMenu: 'b',
    Menu: 'o',
  },
  signals: {
    NewTitle: [''],
    NewIcon: [''],
    NewAttentionIcon: [''],
    NewOverlayIcon: [''],
    NewToolTip: [''],
    NewStatus: ['s'],
  },
};

/** Property names are the protocol's (PascalCase): dbus-native serves the fields as they are. */
export class StatusNotifierItem extends EventEmitter {
  readonly Category = 'SystemServices';
  readonly Id = 'firewarden';
  readonly Title = 'firewarden';
  readonly WindowId = 0;
  readonly IconPixmap: unknown[] = [];
  readonly OverlayIconName = '';
  readonly AttentionIconName = '';
  readonly AttentionIconPixmap: unknown[] = [];
  /** False: a primary click calls Activate (open the web UI); the menu is on the secondary click. */
  readonly ItemIsMenu = false;
  Status: TrayView['status'] = 'Active';
  IconName = 'security-high';
  ToolTip: [string, unknown[], string, string] = [this.IconName, [], this.Title, ''];

  constructor(
    readonly Menu: string,
    private readonly activate: () => void,
  ) {
    super();
  }

  show(view: TrayView): void {
    if (view.status !== this.Status) {
      this.Status = view.status;
      this.emit('NewStatus', view.status);
    }
    const iconChanged = view.iconName !== this.IconName;
    const toolTipChanged = iconChanged || view.description !== this.ToolTip[3];
    this.IconName = view.iconName;
    this.ToolTip = [view.iconName, [], this.Title, view.description];
    if (iconChanged) this.emit('NewIcon');
    if (toolTipChanged) this.emit('NewToolTip');
  }

  Activate(): void {
    this.activate();
  }

  ContextMenu(): void {}

  SecondaryActivate(): void {}

  Scroll(): void {}
}
