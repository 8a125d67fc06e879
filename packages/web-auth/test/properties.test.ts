/**
 * @module Property tests over untrusted input: the Host, Origin, cookie and client-address parsers
 * never throw and stay within bounds for any string, canonical JSON does not depend on key order,
 * and client keys agree with an independent expansion of IPv6 addresses.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, clientKey, isAllowedHost, isAllowedOrigin, readSessionCookie } from '../src/index.js';

const hosts = { port: 7676, allowedHosts: ['workspaced.example.com'] };

describe('parsers of untrusted input', () => {
  it('never throw, whatever the string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 400 }), (text) => {
        expect(typeof isAllowedHost(text, hosts)).toBe('boolean');
        expect(typeof clientKey(text)).toBe('string');
        expect(readSessionCookie(text, 'workspaced_session') ?? '').toHaveLength(
          readSessionCookie(text, 'workspaced_session') === undefined ? 0 : 43,
        );
        const headers = new Headers();
        try {
          headers.set('origin', text);
        } catch {
          return; // not a legal header value: the HTTP layer refuses it before us
        }
        expect(typeof isAllowedOrigin('POST', headers, { hosts })).toBe('boolean');
      }),
      { numRuns: 2_000 },
    );
  });

  it('accept only hosts that spell an allowed name and port', () => {
    fc.assert(
      fc.property(fc.domain(), fc.integer({ min: 1, max: 65_535 }), (name, port) => {
        const allowed = isAllowedHost(`${name}:${port}`, hosts);
        const expected = (name === 'localhost' || name === 'workspaced.example.com') && port === 7676;
        expect(allowed).toBe(expected);
      }),
    );
  });

  it('answer only the loopback names a server lists, when it lists them', () => {
    const boundToIpv4 = { ...hosts, loopbackNames: ['127.0.0.1'] };
    expect(isAllowedHost('127.0.0.1:7676', boundToIpv4)).toBe(true);
    expect(isAllowedHost('workspaced.example.com:7676', boundToIpv4)).toBe(true);
    for (const host of ['[::1]:7676', 'localhost:7676', 'LOCALHOST:7676'])
      expect(isAllowedHost(host, boundToIpv4), host).toBe(false);
    fc.assert(
      fc.property(fc.ipV6(), fc.integer({ min: 1, max: 65_535 }), (address, port) => {
        expect(isAllowedHost(`[${address}]:${port}`, boundToIpv4)).toBe(false);
      }),
    );
  });
});

describe('canonical JSON', () => {
  it('is the same for any key order and parses back to the value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const reordered = JSON.parse(JSON.stringify(value), (_key, item) =>
          item && typeof item === 'object' && !Array.isArray(item)
            ? Object.fromEntries(Object.entries(item).reverse())
            : item,
        );
        expect(canonicalJson(reordered)).toBe(canonicalJson(value));
        expect(JSON.parse(canonicalJson(value))).toEqual(JSON.parse(JSON.stringify(value)));
      }),
    );
  });
});

describe('client keys', () => {
  const hextet = fc.integer({ min: 0, max: 0xffff });

  it('key any IPv6 address by its first four hextets, however it is written', () => {
    fc.assert(
      fc.property(fc.array(hextet, { minLength: 8, maxLength: 8 }), (parts) => {
        fc.pre(!(parts.slice(0, 5).every((part) => part === 0) && parts[5] === 0xffff));
        const full = parts.map((part) => part.toString(16).padStart(4, '0')).join(':');
        const expected = `${parts
          .slice(0, 4)
          .map((part) => part.toString(16))
          .join(':')}::/64`;
        expect(clientKey(full)).toBe(expected);
        expect(clientKey(full.toUpperCase())).toBe(expected);
      }),
    );
  });

  it('key an IPv4-mapped IPv6 address as its IPv4 address', () => {
    fc.assert(
      fc.property(fc.ipV4(), (ipv4) => {
        expect(clientKey(`::ffff:${ipv4}`)).toBe(ipv4);
        const [a, b, c, d] = ipv4.split('.').map(Number) as [number, number, number, number];
        const hex = `::ffff:${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
        expect(clientKey(hex)).toBe(ipv4);
      }),
    );
  });
});
