/**
 * @module What a probe answer means: live, unknown (5xx, timeouts), shutdown (DNS failure, refused, parked, gone).
 */
import type { ListStatus } from '../types.js';

export interface ProbeVerdict {
  state: ListStatus;
  detail: string;
}

/** Text of domain-parking and for-sale pages (Sedo, Bodis, ParkingCrew, Dan, Afternic, HugeDomains, registrars). */
const PARKED_TEXT =
  /domain (name )?(is|may be) for sale|buy this domain|this domain (is parked|has expired)|parked (free|domain|by)|domain parking|sedoparking|parkingcrew|bodis\.com|window\.park|hugedomains|afternic|dan\.com\/|is available for purchase/i;
/** Hosts a parked domain redirects to. */
const PARKING_HOSTS =
  /(^|\.)(sedo\.com|dan\.com|afternic\.com|hugedomains\.com|bodis\.com|parkingcrew\.net|above\.com|undeveloped\.com)$/i;

/** Connection-level failures meaning nobody serves the domain any more. */
const GONE_CODES = new Set([
  'ENOTFOUND',
  'ECONNREFUSED',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'CERT_HAS_EXPIRED',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
]);

/** The error code of a failed fetch (undici puts it on `cause`, Bun on the error itself). */
function errorCode(error: unknown): string {
  const e = error as {
    code?: unknown;
    cause?: { code?: unknown; cause?: { code?: unknown } };
    name?: string;
  };
  const code = e?.cause?.code ?? e?.cause?.cause?.code ?? e?.code;
  if (typeof code === 'string') return code;
  return e?.name === 'AbortError' || e?.name === 'TimeoutError' ? 'TIMEOUT' : 'UNKNOWN';
}

export function classifyError(error: unknown): ProbeVerdict {
  const code = errorCode(error);
  if (code === 'ENOTFOUND') return { state: 'shutdown', detail: 'DNS failure (domain does not resolve)' };
  if (GONE_CODES.has(code)) return { state: 'shutdown', detail: `unreachable (${code})` };
  return { state: 'unknown', detail: code === 'TIMEOUT' ? 'timeout' : `network error (${code})` };
}

function isParkedHost(finalUrl: string): boolean {
  try {
    return PARKING_HOSTS.test(new URL(finalUrl).hostname);
  } catch {
    return false;
  }
}

export function classifyAnswer(status: number, finalUrl: string, html: string | null): ProbeVerdict {
  if (isParkedHost(finalUrl))
    return { state: 'shutdown', detail: `parked domain (redirects to ${new URL(finalUrl).hostname})` };
  if (status >= 500) return { state: 'unknown', detail: `HTTP ${status}` };
  if (status === 410) return { state: 'shutdown', detail: 'HTTP 410 Gone' };
  if (html !== null && PARKED_TEXT.test(html))
    return { state: 'shutdown', detail: 'parked domain (for-sale page)' };
  return { state: 'live', detail: `HTTP ${status}` };
}
