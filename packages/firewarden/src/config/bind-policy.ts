/**
 * @module The rule that keeps the management UI off the network by accident: a non-loopback
 * bind needs TLS, or the explicit insecure-bind opt-in.
 */
import { isLoopbackHost } from '@suite/server-kit';
import type { Config } from './schema.js';

export { isLoopbackHost };

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
