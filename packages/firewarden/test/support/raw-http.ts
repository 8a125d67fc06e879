/**
 * @module A request with headers `fetch` will not send (a forged `Host`), through node:http.
 */
import { request } from 'node:http';

/** `host` as a list sends one Host line per item. */
export function requestWithHost(
  url: string,
  host: string | string[],
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const outgoing = request(
      {
        hostname: target.hostname,
        port: target.port,
        path: target.pathname,
        setHost: false,
        // As rawHeaders: name, value, name, value (an object cannot repeat Host).
        headers: [host].flat().flatMap((value) => ['Host', value]),
      },
      (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => {
          body += chunk.toString();
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    outgoing.on('error', reject);
    outgoing.end();
  });
}
