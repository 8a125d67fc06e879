/**
 * @module Which ports a preview may reach: a decimal 1-65535 written without sign, spaces or
 * leading zeros (so `0x50`, `+80`, `080` and `80.0` are refused, not reinterpreted), and never one
 * of the daemon's own listeners (its API and its preview origin).
 */
import { ApiError } from '../http/api-error.js';

/** The port a text names, or undefined when it is not a canonical decimal 1-65535. */
export function parsePreviewPort(text: string): number | undefined {
  if (!/^[1-9]\d{0,4}$/.test(text)) return undefined;
  const port = Number(text);
  return port <= 65_535 ? port : undefined;
}

/** The daemon's own listening ports, read when asked (they are known only once listening). */
export type OwnPorts = () => readonly (number | undefined)[];

/** The validated target port, or an ApiError a client can act on. */
export function previewTarget(text: string, ownPorts: OwnPorts): number {
  const port = parsePreviewPort(text);
  if (port === undefined)
    throw new ApiError('INVALID_PORT', 'the preview port must be a number from 1 to 65535');
  if (ownPorts().includes(port))
    throw new ApiError('PREVIEW_PORT_REFUSED', "the daemon's own ports cannot be previewed");
  return port;
}
