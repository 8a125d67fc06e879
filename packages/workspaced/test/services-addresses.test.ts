/**
 * @module Tests: decoding the kernel's hex addresses of `/proc/net/tcp{,6}` (each 32-bit word in
 * host byte order, so these rows are what a little-endian machine prints) into the text users
 * expect, IPv6 compressed as RFC 5952 says.
 */
import { endianness } from 'node:os';
import { expect, test } from 'vitest';
import { decodeAddress } from '../src/services/listening-sockets.js';

test.runIf(endianness() === 'LE')('addresses as a little-endian kernel prints them', () => {
  const cases: [string, string][] = [
    ['0100007F', '127.0.0.1'],
    ['00000000', '0.0.0.0'],
    ['0101A8C0', '192.168.1.1'],
    ['00000000000000000000000000000000', '::'],
    ['00000000000000000000000001000000', '::1'],
    ['0000000000000000FFFF00000100000A', '::ffff:10.0.0.1'],
    ['B80D0120000000000000000001000000', '2001:db8::1'],
    // The longest run of zero groups is compressed, not the first.
    ['B80D0120010000000000000001000000', '2001:db8:0:1::1'],
    // A single zero group stays written out.
    ['000080FE00000000FF000000FE000000', 'fe80::ff:0:fe'],
  ];
  for (const [hex, text] of cases) expect(decodeAddress(hex), hex).toBe(text);
});
