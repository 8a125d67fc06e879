/**
 * @module The preview origin's host names: `p<port>.localhost:<preview port>`, one origin per
 * previewed port, so two previewed apps cannot read each other and none shares a host (hence
 * cookies) with the daemon's API. Browsers resolve every `*.localhost` name to loopback without
 * DNS (RFC 6761), which also makes the names useless for DNS rebinding.
 */
import { parsePreviewPort } from './preview-port.js';

const previewDomain = 'localhost';

function previewHostName(port: number): string {
  return `p${port}.${previewDomain}`;
}

export function previewOrigin(port: number, previewListenerPort: number): string {
  return `http://${previewHostName(port)}:${previewListenerPort}`;
}

/**
 * The previewed port named by a `Host` header, or undefined when the header is not exactly
 * `p<port>.localhost:<preview port>` (any other name, including the bare listener address, is
 * refused as a DNS-rebinding guard).
 */
export function portFromPreviewHost(
  host: string | undefined,
  previewListenerPort: number,
): number | undefined {
  if (!host) return undefined;
  const match = /^p(\d{1,5})\.([a-z]+):(\d{1,5})$/.exec(host.toLowerCase());
  if (!match || match[2] !== previewDomain || match[3] !== String(previewListenerPort)) return undefined;
  return parsePreviewPort(match[1]!);
}
