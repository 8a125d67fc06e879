/**
 * @module Tests: Parsing of Query full stat answers.
 */
import { expect, test } from 'vitest';
import { parseFullStat } from '../../../src/online/query-client.js';

test('parses the K/V section and the player list of a full stat answer', () => {
  const answer = Buffer.concat([
    Buffer.from([0, 0, 0, 0, 1]),
    Buffer.from('splitnum\0\x80\0', 'latin1'),
    Buffer.from('hostname\0My Server\0version\x001.21.4\0maxplayers\x0040\0\0', 'utf8'),
    Buffer.from('\x01player_\0\0', 'latin1'),
    Buffer.from('Alex\0Steve\0\0', 'utf8'),
  ]);
  expect(parseFullStat(answer)).toEqual({
    online: 2,
    max: 40,
    version: '1.21.4',
    players: [{ name: 'Alex' }, { name: 'Steve' }],
  });
});

test('an answer without the player section is an error', () => {
  expect(() => parseFullStat(Buffer.alloc(30))).toThrow(/player section/);
});
