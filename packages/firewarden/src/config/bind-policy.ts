/**
 * @module The rule that keeps the management UI off the network by accident: a non-loopback
 * bind needs TLS, or the explicit insecure-bind opt-in.
 */
import { isIP } from 'node:net';
import type { Config } from './schema.js';

/** True for `localhost`, 127.0.0.0/8, `::1` and IPv4-mapped loopback (`::ffff:127.x.y.z`). */
export function isLoopbackHost(host: string): boolean {
  const lower = host.toLowerCase();
  if (lower === 'localhost' || lower === '::1') return true;
  const v4 = lower.startsWith('::ffff:') ? lower.slice(7) : lower;
  return isIP(v4) === 4 && v4.startsWith('127.');
}

/** Null when the bind is acceptable, else the message to print before refusing to start. */
export function insecureBindProblem(config: Config): string | null {
  const { bind, allow_insecure_bind } = config.server;
  if (isLoopbackHost(bind) || config.tls.enabled || allow_insecure_bind) return null;
  return (
    `refusing to listen on ${bind} without TLS: the login and session cookie would cross the network ` +
    'in clear text. Enable tls (tls.enabled, tls.cert_file, tls.key_file), bind to 127.0.0.1, or opt in ' +
    'with server.allow_insecure_bind: true / FIREWARDEN_ALLOW_INSECURE_BIND=true.'
  );
}
