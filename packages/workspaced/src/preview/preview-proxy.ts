/**
 * @module One proxied HTTP exchange: the browser's request streamed to the previewed port and the
 * answer streamed back (`pipe` and `pipeline`, so a slow side pauses the other: backpressure) and
 * nothing is buffered whole. A port where nothing listens is a 502; an upstream that fails
 * after its answer began is cut off (the browser sees a truncated body, not a made-up one).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream';
import { requestUpstream } from './loopback-target.js';
import { answerError, upstreamUnavailable } from './preview-errors.js';
import { downstreamResponseHeaders } from './proxy-headers.js';

export function proxyRequest(request: IncomingMessage, response: ServerResponse, port: number): void {
  const upstream = requestUpstream(request, port, { upgrade: false });
  upstream.on('response', (answer) => {
    response.writeHead(
      answer.statusCode ?? 502,
      answer.statusMessage,
      downstreamResponseHeaders(answer.rawHeaders),
    );
    // Headers go out now: a streaming app's first bytes must not wait for a later chunk.
    response.flushHeaders();
    pipeline(answer, response, (error) => {
      if (error) response.destroy();
    });
  });
  // pipe, not pipeline: a failed upstream must not destroy the browser's socket before the 502.
  request.pipe(upstream);
  upstream.on('error', () => {
    request.unpipe(upstream);
    if (response.headersSent) response.destroy();
    else answerError(response, upstreamUnavailable(port), request.headers.accept);
  });
  // The browser went away: stop the upstream exchange too.
  response.on('close', () => {
    if (!response.writableFinished) upstream.destroy();
  });
}
