/**
 * @module A real HTTP receiver on 127.0.0.1:0 for outbound webhook tests (and the push service of
 * the Web Push tests): records every request (method, path, headers, body as text and as bytes)
 * and answers with the status the test sets, for every path or for the next requests on one.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  raw: Buffer;
}

export class WebhookReceiver {
  readonly received: ReceivedRequest[] = [];
  /** Status of the next answers; a `Location` goes with 3xx. */
  status = 204;
  /** Statuses for the next requests on a path, used up in order before `status` applies. */
  readonly nextStatuses = new Map<string, number[]>();
  private readonly server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks);
      const path = request.url ?? '';
      this.received.push({
        method: request.method ?? '',
        path,
        headers: request.headers,
        body: raw.toString('utf8'),
        raw,
      });
      const status = this.nextStatuses.get(path)?.shift() ?? this.status;
      const headers = status >= 300 && status < 400 ? { location: `${this.url}/elsewhere` } : {};
      response.writeHead(status, headers).end();
    });
  });

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  start(): Promise<this> {
    return new Promise((resolve) => this.server.listen(0, '127.0.0.1', () => resolve(this)));
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** Waits until `count` requests arrived on `path` (the daemon delivers in the background). */
  async waitFor(path: string, count = 1, ms = 15_000): Promise<ReceivedRequest[]> {
    const deadline = Date.now() + ms;
    for (;;) {
      const matching = this.received.filter((request) => request.path === path);
      if (matching.length >= count) return matching;
      if (Date.now() > deadline) throw new Error(`waited in vain for ${count} request(s) on ${path}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}
