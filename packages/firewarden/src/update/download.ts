/**
 * @module Bounded downloads from the update server: a timeout and a size cap, HTTP 200 only.
 */
import { UpdateError } from './update-error.js';

export async function download(url: string, maxBytes: number, timeoutMs: number): Promise<Buffer> {
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), redirect: 'follow' });
  } catch (error) {
    throw new UpdateError('UPDATE_FETCH_FAILED', `cannot fetch ${url}: ${(error as Error).message}`);
  }
  if (response.status !== 200)
    throw new UpdateError('UPDATE_FETCH_FAILED', `${url} answered HTTP ${response.status}`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body ?? []) {
    size += chunk.length;
    if (size > maxBytes)
      throw new UpdateError('UPDATE_FETCH_FAILED', `${url} is larger than ${maxBytes} bytes`);
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}
