/**
 * @module Why `firewarden tray` cannot show an icon here (no session bus, or no tray host on it):
 * the command reports it and exits 3, "not available", distinct from failures (1).
 */
export class TrayUnavailable extends Error {
  override readonly name = 'TrayUnavailable';
}
