/**
 * @module Signed JSON POSTs to outside URLs, shared by notification webhooks and platform
 * webhooks (`post`, the transport below the signature, also carries Web Push messages):
 * `X-Workspaced-Signature: sha256=<hex HMAC-SHA256 of the body>`, a timeout per attempt,
 * retries with backoff, no redirect followed (a 3xx is a failure like any non-2xx), and the SSRF
 * guard: http/https only, every address checked by address-policy.ts and the connection pinned to
 * the address that was checked (our own `lookup`, so a DNS answer that changes between check and
 * connect cannot move it).
 */
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { isPrivateAddress } from './address-policy.js';

const signatureHeader = 'X-Workspaced-Signature';

export interface DeliveryPolicy {
  /** Loopback, private and link-local targets (`--allow-private-targets`). */
  allowPrivateTargets: boolean;
  /** Per attempt, connect to last byte. */
  timeoutMs: number;
  /** Waits before the 2nd, 3rd... attempt; its length + 1 is the number of attempts. */
  retryDelaysMs: readonly number[];
  userAgent: string;
}

export const defaultDeliveryTiming = {
  timeoutMs: 5_000,
  retryDelaysMs: [1_000, 4_000],
} as const;

export interface Delivery {
  url: string;
  /** HMAC key; never logged, never echoed. */
  secret: string;
  /** Sent as `X-Workspaced-Event`. */
  event: string;
  payload: unknown;
}

export interface DeliveryResult {
  /** `delivered` (2xx), `failed` (after the last attempt), `refused` (the SSRF guard; not retried). */
  outcome: 'delivered' | 'failed' | 'refused';
  id: string;
  status: number | null;
  attempts: number;
  error: string | null;
}

/** A target the guard refuses: wrong scheme, credentials in the URL, or a private address. */
export class RefusedTarget extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RefusedTarget';
  }
}

/** 429 and 5xx are worth another attempt; other non-2xx answers will not change. */
const retryableStatus = (status: number) => status === 429 || status >= 500;

/** Largest answer body read (and thrown away) before the connection is dropped. */
const maxAnswerBytes = 64 * 1024;

/** Checks what can be checked without DNS; the URL a webhook or rule may be saved with. */
export function checkTargetUrl(target: string, allowPrivateTargets: boolean): URL {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    throw new RefusedTarget('the target is not an absolute URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new RefusedTarget('the target must be an http or https URL');
  if (url.username || url.password) throw new RefusedTarget('the target may not carry credentials');
  const host = bareHost(url);
  if (isIP(host) && !allowPrivateTargets && isPrivateAddress(host))
    throw new RefusedTarget('the target is a private, loopback or link-local address');
  return url;
}

/** The scheme and host of a target: what a log line may say about it (paths can hold tokens). */
export function targetOrigin(target: string): string {
  try {
    return new URL(target).origin;
  } catch {
    return 'invalid URL';
  }
}

/** A fresh HMAC key for a rule or webhook that was given none. */
export const newSigningSecret = () => `whsec_${randomBytes(32).toString('hex')}`;

function sign(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

function bareHost(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

/** Resolves a name and keeps the first address the policy allows; the socket dials exactly it. */
function pinnedLookup(allowPrivateTargets: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { all: true, family: options.family ?? 0 })
      .then((addresses) => {
        const allowed = addresses.find((entry) => allowPrivateTargets || !isPrivateAddress(entry.address));
        if (!allowed)
          throw new RefusedTarget(`${hostname} resolves only to private, loopback or link-local addresses`);
        if (options.all) (callback as (e: null, a: typeof addresses) => void)(null, [allowed]);
        else callback(null, allowed.address, allowed.family);
      })
      .catch((error: Error) => callback(error as NodeJS.ErrnoException, '', 0));
  };
}

function postOnce(
  url: URL,
  body: string | Uint8Array,
  headers: Record<string, string>,
  policy: DeliveryPolicy,
) {
  return new Promise<number>((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http;
    const host = bareHost(url);
    const request = client.request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        // A fresh connection each time: a pooled socket could outlive the address check.
        agent: false,
        // IP literals never reach `lookup`; they were checked by checkTargetUrl.
        lookup: isIP(host) ? undefined : pinnedLookup(policy.allowPrivateTargets),
        signal: AbortSignal.timeout(policy.timeoutMs),
      },
      (response) => {
        let received = 0;
        response.on('data', (chunk: Buffer) => {
          received += chunk.length;
          if (received > maxAnswerBytes) response.destroy();
        });
        response.on('close', () => resolve(response.statusCode ?? 0));
        response.on('error', () => resolve(response.statusCode ?? 0));
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A delivery whose payload is already serialized (delivery-queue.ts counts its bytes). */
interface SerializedDelivery extends Omit<Delivery, 'payload'> {
  body: string;
}

/** A failure before any attempt (unserializable payload, full queue): never retried. */
export function notAttempted(error: string): DeliveryResult {
  return { outcome: 'failed', id: randomUUID(), status: null, attempts: 0, error };
}

/** The JSON body of a payload, or undefined when it cannot be serialized (too deep, a cycle). */
export function serializePayload(payload: unknown): string | undefined {
  try {
    return JSON.stringify(payload);
  } catch {
    return undefined;
  }
}

/** A POST ready to go: the body's bytes and its headers (a signed webhook, an encrypted push message). */
export interface OutboundRequest {
  url: string;
  body: string | Uint8Array;
  headers: Record<string, string>;
}

/** POSTs a serialized body, signed, with retries; never throws (delivery-queue.ts queues it). */
export function deliver(delivery: SerializedDelivery, policy: DeliveryPolicy): Promise<DeliveryResult> {
  const id = randomUUID();
  const headers = {
    'content-type': 'application/json',
    [signatureHeader]: sign(delivery.secret, delivery.body),
    'X-Workspaced-Event': delivery.event,
    'X-Workspaced-Delivery': id,
  };
  return post({ url: delivery.url, body: delivery.body, headers }, policy, id);
}

/**
 * POSTs a prepared request under the SSRF guard, with the policy's timeout and retries (429, 5xx
 * and network errors); never throws. `id` names the delivery in its result and the log.
 */
export async function post(
  request: OutboundRequest,
  policy: DeliveryPolicy,
  id: string = randomUUID(),
): Promise<DeliveryResult> {
  const result = (
    outcome: DeliveryResult['outcome'],
    status: number | null,
    attempts: number,
    error: string | null,
  ) => ({ outcome, id, status, attempts, error }) satisfies DeliveryResult;
  let url: URL;
  try {
    url = checkTargetUrl(request.url, policy.allowPrivateTargets);
  } catch (error) {
    return result('refused', null, 0, (error as Error).message);
  }
  const { body } = request;
  const headers = { 'user-agent': policy.userAgent, ...request.headers };
  let status: number | null = null;
  let error: string | null = null;
  const attempts = policy.retryDelaysMs.length + 1;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    if (attempt > 1) await sleep(policy.retryDelaysMs[attempt - 2]!);
    try {
      status = await postOnce(url, body, headers, policy);
      if (status >= 200 && status < 300) return result('delivered', status, attempt, null);
      error = `the target answered ${status}`;
      if (!retryableStatus(status)) return result('failed', status, attempt, error);
    } catch (caught) {
      if (caught instanceof RefusedTarget) return result('refused', null, attempt, caught.message);
      status = null;
      error = (caught as Error).name === 'TimeoutError' ? 'timed out' : (caught as Error).message;
    }
  }
  return result('failed', status, attempts, error);
}
