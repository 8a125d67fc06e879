/**
 * @module Tests: the SSRF guard of outbound deliveries (notification and platform webhooks):
 * which addresses are refused without `--allow-private-targets`, which URLs may be saved, and
 * that a delivery to a name is made to the address that was checked.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from 'vitest';
import { isPrivateAddress } from '../src/outbound/address-policy.js';
import { checkTargetUrl, deliver, RefusedTarget } from '../src/outbound/signed-delivery.js';

test('loopback, private, link-local, CGNAT, ULA, mapped and special addresses are refused', () => {
  for (const address of [
    '127.0.0.1',
    '127.255.0.9',
    '0.0.0.0',
    '10.0.0.1',
    '172.16.5.4',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '224.0.0.1',
    '255.255.255.255',
    '::',
    '::1',
    'fc00::1',
    'fd12:3456::1',
    'fe80::1',
    '::ffff:127.0.0.1',
    '::ffff:8.8.8.8',
    '64:ff9b::7f00:1',
    'not an address',
  ])
    expect(isPrivateAddress(address), address).toBe(true);
  for (const address of ['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '2606:4700::1111'])
    expect(isPrivateAddress(address), address).toBe(false);
});

test('only http and https URLs without credentials are targets; private literals need the opt-in', () => {
  for (const target of [
    'ftp://example.com/',
    'file:///etc/passwd',
    'javascript:alert(1)',
    'not a url',
    'https://u:p@example.com/',
  ])
    expect(() => checkTargetUrl(target, true), target).toThrow(RefusedTarget);
  for (const target of ['http://127.0.0.1:8080/', 'http://[::1]/', 'http://169.254.169.254/latest/meta-data'])
    expect(() => checkTargetUrl(target, false), target).toThrow(RefusedTarget);
  expect(checkTargetUrl('http://127.0.0.1:8080/', true).port).toBe('8080');
  expect(checkTargetUrl('https://hooks.example.com/x', false).hostname).toBe('hooks.example.com');
});

test('a name is resolved, checked and dialled at the checked address', async () => {
  const server = http.createServer((_request, response) => response.writeHead(204).end());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const policy = { timeoutMs: 2_000, retryDelaysMs: [], userAgent: 'test' };
  try {
    const delivery = { url: `http://localhost:${port}/`, secret: 's', event: 'e', body: '{}' };
    const refused = await deliver(delivery, { ...policy, allowPrivateTargets: false });
    expect(refused).toMatchObject({ outcome: 'refused', attempts: 1 });
    expect(refused.error).toContain('localhost resolves only to private');
    // With the opt-in the same name reaches the receiver on 127.0.0.1.
    const delivered = await deliver(delivery, { ...policy, allowPrivateTargets: true });
    expect(delivered).toMatchObject({ outcome: 'delivered', status: 204 });
  } finally {
    server.close();
  }
});
