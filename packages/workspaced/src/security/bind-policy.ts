/**
 * @module Where the daemon may listen. Loopback always; any other address only once an owner
 * exists (so nobody on the network can claim the daemon through `POST /setup`) and only over
 * TLS or with the explicit `--allow-insecure-remote` opt-in (session cookies would otherwise
 * cross the network in clear text).
 */
import { isIP } from 'node:net';
import { isLoopbackHost } from '@suite/server-kit';

interface BindRequest {
  host: string;
  ownerExists: boolean;
  tls: boolean;
  allowInsecureRemote: boolean;
}

export class BindRefused extends Error {
  override readonly name = 'BindRefused';
}

export { isLoopbackHost };

/**
 * The loopback names the Host allow-list answers for a daemon listening on `host`:
 * only names of the address it holds, so the browser is never told that a name is this daemon
 * while it may reach another process (`[::1]` with the same port is free for anyone when the
 * daemon holds only 127.0.0.1, and browsers may try `::1` first for `localhost`).
 * - `127.x.y.z`: that address; `0.0.0.0`: `127.0.0.1` (every IPv4 interface includes it);
 * - `::1`: `[::1]`; `::ffff:127.x.y.z`: `127.x.y.z`; `::`: `[::1]` (IPv4 too on a dual-stack
 *   system, but not everywhere);
 * - `localhost`: `localhost`, the name the user chose (the listening line shows it; which address
 *   the resolver gave the daemon and which one a browser tries is then up to them);
 * - any other address: none (the names clients use come with `--allowed-host`).
 */
export function loopbackHostNames(host: string): string[] {
  const bare = (host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host).toLowerCase();
  if (bare === 'localhost') return ['localhost'];
  if (bare === '0.0.0.0') return ['127.0.0.1'];
  if (bare === '::') return ['[::1]'];
  if (!isLoopbackHost(bare)) return [];
  if (isIP(bare) === 4) return [bare];
  return bare.startsWith('::ffff:') && isIP(bare.slice(7)) === 4 ? [bare.slice(7)] : ['[::1]'];
}

export function checkBind(request: BindRequest): void {
  if (isLoopbackHost(request.host)) return;
  if (!request.ownerExists)
    throw new BindRefused(
      `refusing to listen on ${request.host} before an owner exists: start on 127.0.0.1, create the owner (POST /api/v1/setup), then restart`,
    );
  if (!request.tls && !request.allowInsecureRemote)
    throw new BindRefused(
      `refusing to listen on ${request.host} without TLS: pass --tls-cert and --tls-key, or --allow-insecure-remote behind a TLS proxy`,
    );
}
