/**
 * @module Tests: RCON packet encoding and decoding.
 */
import { expect, test } from 'vitest';
import { decodeRconPackets, encodeRconPacket } from '../../../src/online/rcon-protocol.js';

test('encodes the wiki.vg layout byte for byte', () => {
  // length 14 = id(4) + type(4) + "list"(4) + 2 NULs; little-endian.
  expect(encodeRconPacket({ id: 7, type: 2, payload: 'list' }).toString('hex')).toBe(
    '0e000000' + '07000000' + '02000000' + '6c697374' + '0000',
  );
});

test('decodes packets split across and joined within chunks', () => {
  const one = encodeRconPacket({ id: 1, type: 0, payload: 'hello' });
  const two = encodeRconPacket({ id: -1, type: 2, payload: '' });
  const joined = Buffer.concat([one, two]);
  const first = decodeRconPackets(joined.subarray(0, 9));
  expect(first.packets).toEqual([]);
  const all = decodeRconPackets(joined);
  expect(all.packets).toEqual([
    { id: 1, type: 0, payload: 'hello' },
    { id: -1, type: 2, payload: '' },
  ]);
  expect(all.rest.length).toBe(0);
});

test('an impossible length is an error, not an endless wait', () => {
  const bogus = Buffer.alloc(12);
  bogus.writeInt32LE(3, 0);
  expect(() => decodeRconPackets(bogus)).toThrow(/length/);
});
