/**
 * @module Tests: a socket bound to loopback is `loopback_only` in every spelling /proc/net gives,
 * IPv4-mapped included (read back as `::ffff:7f00:1`), whatever the ruleset says.
 */
import { expect, test } from 'vitest';
import { parseProcNet } from '../../src/agent/listening-sockets.js';
import { exposureClassifier } from '../../src/engine/exposure.js';

const header =
  '  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode';
const tcp6Line = (local: string) =>
  `   0: ${local}:1F90 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 4242 1 0000000000000000 100 0 0 10 0`;

test('IPv4-mapped loopback, ::1 and 127.0.0.0/8 are loopback_only; the wildcard addresses are not', () => {
  const sockets = parseProcNet(
    [
      header,
      tcp6Line('0000000000000000FFFF00000100007F'),
      tcp6Line('00000000000000000000000001000000'),
      tcp6Line('00000000000000000000000000000000'),
    ].join('\n'),
    'tcp',
    'ipv6',
  );
  expect(sockets.map((socket) => socket.address)).toEqual(['::ffff:7f00:1', '::1', '::']);
  const classify = exposureClassifier(
    { foreign: [], policies: [], own_jumps: [] },
    { chain: 'FIREWARDEN-INPUT', rules: [] },
  );
  const exposure = (address: string, family: 'ipv4' | 'ipv6') =>
    classify({ protocol: 'tcp', family, address, port: 8080 }).exposure;
  expect(sockets.map((socket) => exposure(socket.address, 'ipv6'))).toEqual([
    'loopback_only',
    'loopback_only',
    'exposed',
  ]);
  expect(exposure('127.0.0.53', 'ipv4')).toBe('loopback_only');
  expect(exposure('0.0.0.0', 'ipv4')).toBe('exposed');
});
