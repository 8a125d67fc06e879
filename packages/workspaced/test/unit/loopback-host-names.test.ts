/**
 * @module Tests: the loopback names the Host allow-list answers for each listening address, on
 * the shared loopback check of @suite/server-kit (an IPv4-mapped address answers its IPv4 name).
 */
import { expect, test } from 'vitest';
import { loopbackHostNames } from '../../src/security/bind-policy.js';

test.each([
  ['127.0.0.1', ['127.0.0.1']],
  ['127.0.0.2', ['127.0.0.2']],
  ['0.0.0.0', ['127.0.0.1']],
  ['::1', ['[::1]']],
  ['[::1]', ['[::1]']],
  ['::', ['[::1]']],
  ['::ffff:127.0.0.1', ['127.0.0.1']],
  ['::ffff:127.0.0.2', ['127.0.0.2']],
  ['localhost', ['localhost']],
  ['LOCALHOST', ['localhost']],
  ['192.168.1.5', []],
])('listening on %j answers the Host names %j', (host, names) => {
  expect(loopbackHostNames(host)).toEqual(names);
});
