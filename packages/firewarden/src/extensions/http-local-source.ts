/**
 * @module The `http.local` widget source: GET a JSON document from a loopback URL on the widget's
 * behalf. The host is resolved and every address must be loopback; the connection goes to the
 * address that was checked (no second lookup a DNS rebinding could change); redirects are followed
 * only to loopback URLs, at most a few; a timeout and a size cap bound what one widget can cost.
 */
import { lookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { isLoopbackHost } from '@suite/server-kit';
import { ExtensionError } from './extension-error.js';
import { isLoopbackUrlSyntax } from './widget-sources.js';

export interface HttpLocalLimits {
  timeoutMs: number;
  maxBytes: number;
  maxRedirects: number;
}

const defaultHttpLocalLimits: HttpLocalLimits = {
  timeoutMs: 3_000,
  maxBytes: 256 * 1024,
  maxRedirects: 3,
};

const redirectStatuses = new Set([301, 302, 303, 307, 308]);

/** The parsed JSON the URL answers with; `ExtensionError` for a refused URL or a failed fetch. */
export async function fetchHttpLocal(url: string, limits = defaultHttpLocalLimits): Promise<unknown> {
  const deadline = Date.now() + limits.timeoutMs;
  let current = url;
  for (let hop = 0; hop <= limits.maxRedirects; hop++) {
    const target = await checkedTarget(current);
    const answer = await get(target, deadline, limits.maxBytes);
    if (!redirectStatuses.has(answer.status)) {
      if (answer.status !== 200) fetchFailed(`${current} answered HTTP ${answer.status}`);
      try {
        return JSON.parse(answer.body.toString('utf8'));
      } catch {
        fetchFailed(`${current} did not answer JSON`);
      }
    }
    if (!answer.location) fetchFailed(`${current} redirected without a Location`);
    current = new URL(answer.location, current).href;
  }
  fetchFailed(`more than ${limits.maxRedirects} redirects`);
}

interface Target {
  url: URL;
  address: string;
  family: number;
}

async function checkedTarget(text: string): Promise<Target> {
  if (!isLoopbackUrlSyntax(text)) refuse(`${text} is not an http(s) URL on a loopback host`);
  const url = new URL(text);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: { address: string; family: number }[];
  try {
    addresses = await lookup(host, { all: true });
  } catch {
    refuse(`${host} does not resolve`);
  }
  const outside = addresses.filter(({ address }) => !isLoopbackHost(address));
  if (addresses.length === 0 || outside.length > 0) {
    refuse(`${host} resolves to a non-loopback address (${outside.map((a) => a.address).join(', ')})`);
  }
  return { url, ...addresses[0]! };
}

interface Answer {
  status: number;
  location: string | undefined;
  body: Buffer;
}

function get(target: Target, deadline: number, maxBytes: number): Promise<Answer> {
  // The socket connects to the address checked above, whatever the name would resolve to now.
  const pinned: LookupFunction = (_hostname, options, callback) => {
    if ((options as { all?: boolean }).all)
      callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
  const client = target.url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.get(
      target.url,
      {
        lookup: pinned,
        timeout: Math.max(1, deadline - Date.now()),
        headers: { accept: 'application/json' },
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) {
            request.destroy(
              new ExtensionError('EXTENSION_SOURCE_FAILED', `answer larger than ${maxBytes} bytes`),
            );
            return;
          }
          chunks.push(chunk);
        });
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            location: response.headers.location,
            body: Buffer.concat(chunks),
          }),
        );
        response.on('error', reject);
      },
    );
    const timer = setTimeout(
      () =>
        request.destroy(new ExtensionError('EXTENSION_SOURCE_FAILED', 'the source did not answer in time')),
      Math.max(1, deadline - Date.now()),
    );
    request.on('close', () => clearTimeout(timer));
    request.on('timeout', () =>
      request.destroy(new ExtensionError('EXTENSION_SOURCE_FAILED', 'the source did not answer in time')),
    );
    request.on('error', (error) =>
      reject(
        error instanceof ExtensionError
          ? error
          : new ExtensionError(
              'EXTENSION_SOURCE_FAILED',
              `cannot reach ${target.url.host}: ${(error as NodeJS.ErrnoException).code ?? error.message}`,
            ),
      ),
    );
  });
}

function refuse(message: string): never {
  throw new ExtensionError('EXTENSION_SOURCE_REFUSED', message);
}

function fetchFailed(message: string): never {
  throw new ExtensionError('EXTENSION_SOURCE_FAILED', message);
}
