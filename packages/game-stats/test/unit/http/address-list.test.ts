/**
 * @module Tests: Address normalisation, allow-list matching and X-Forwarded-For resolution.
 */
import { describe, expect, test } from 'vitest';
import { createAddressList, normaliseAddress, resolveClientAddress } from '../../../src/http/address-list.js';

describe('normaliseAddress', () => {
  test.each([
    ['::ffff:10.0.0.1', '10.0.0.1'],
    ['::FFFF:127.0.0.1', '127.0.0.1'],
    ['[2001:DB8::1]', '2001:db8::1'],
    ['fe80::1%eth0', 'fe80::1'],
    [' 192.0.2.1 ', '192.0.2.1'],
    ['::1', '127.0.0.1'],
    ['not-an-ip', null],
    ['999.1.1.1', null],
  ])('%s -> %s', (input, expected) => {
    expect(normaliseAddress(input)).toBe(expected);
  });
});

describe('createAddressList', () => {
  const list = createAddressList([
    '203.0.113.7',
    '10.0.0.0/8',
    '::ffff:192.168.1.5',
    '2001:db8::/32',
    'localhost',
  ]);
  test.each([
    ['203.0.113.7', true],
    ['203.0.113.8', false],
    ['10.255.0.1', true],
    ['::ffff:10.1.1.1', true],
    ['11.0.0.1', false],
    ['192.168.1.5', true],
    ['2001:db8:1::5', true],
    ['2001:db9::1', false],
    ['127.0.0.1', true],
    ['::1', true],
    ['garbage', false],
  ])('%s allowed: %s', (address, allowed) => {
    expect(list.has(address)).toBe(allowed);
  });

  test('::1 and 127.0.0.1 are the same client, whichever the entry says', () => {
    expect(createAddressList(['127.0.0.1']).has('::1')).toBe(true);
    expect(createAddressList(['::1']).has('127.0.0.1')).toBe(true);
    expect(createAddressList(['::1']).has('127.0.0.2')).toBe(false);
  });

  test('invalid entries are refused at start', () => {
    expect(() => createAddressList(['10.0.0.0/33'])).toThrow(/prefix/);
    expect(() => createAddressList(['example.com'])).toThrow(/not an IP/);
  });
});

describe('resolveClientAddress', () => {
  const proxies = createAddressList(['127.0.0.1', '10.0.0.0/8']);
  test('peer is the client unless it is a trusted proxy', () => {
    expect(resolveClientAddress('::ffff:198.51.100.2', '1.2.3.4', proxies)).toBe('198.51.100.2');
    expect(resolveClientAddress('127.0.0.1', '1.2.3.4', null)).toBe('127.0.0.1');
  });
  test('walks X-Forwarded-For from the right, skipping trusted hops', () => {
    expect(resolveClientAddress('127.0.0.1', '6.6.6.6, 1.2.3.4, 10.0.0.9', proxies)).toBe('1.2.3.4');
    expect(resolveClientAddress('127.0.0.1', '10.0.0.8, 10.0.0.9', proxies)).toBe('127.0.0.1');
    expect(resolveClientAddress('127.0.0.1', 'junk', proxies)).toBe('127.0.0.1');
  });
});
