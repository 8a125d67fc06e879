/**
 * @module Tests: the self-signed certificate is trusted for 127.0.0.1 and localhost by a client
 * given it as `ca`, refused without it, and removed with its folder.
 */
import { existsSync } from 'node:fs';
import { createServer as createHttpsServer, get } from 'node:https';
import type { AddressInfo } from 'node:net';
import { expect, test } from 'vitest';
import { opensslInstalled, selfSignedCertificate } from '../src/index.js';

function httpsText(url: string, ca?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    get(url, { ca }, (response) => {
      let text = '';
      response.on('data', (chunk) => {
        text += chunk;
      });
      response.on('end', () => resolve(text));
    }).on('error', reject);
  });
}

test('serves HTTPS that a client trusts for 127.0.0.1 and localhost with the certificate as ca', async (context) => {
  if (!opensslInstalled()) {
    if (process.env.CI === 'true') throw new Error('openssl is needed for the certificate test on CI');
    console.warn('skipping the certificate test: openssl is not installed');
    return context.skip();
  }
  const pem = selfSignedCertificate();
  const server = createHttpsServer({ cert: pem.cert, key: pem.key }, (_request, response) =>
    response.end('secure'),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  try {
    expect(await httpsText(`https://127.0.0.1:${port}/`, pem.cert)).toBe('secure');
    expect(await httpsText(`https://localhost:${port}/`, pem.cert)).toBe('secure');
    await expect(httpsText(`https://127.0.0.1:${port}/`)).rejects.toThrow(/self-signed/);
  } finally {
    server.close();
    pem.remove();
  }
  expect(existsSync(pem.certFile)).toBe(false);
});
