/**
 * @module Tests: Parsing of `list` / `list uuids` answers.
 */
import { expect, test } from 'vitest';
import { parseListOutput } from '../../../src/online/list-output.js';

test('`list uuids` output gives names, UUIDs and the max', () => {
  expect(
    parseListOutput(
      'There are 2 of a max of 20 players online: Alex (069a79f4-44e9-4726-a5be-fca90e38aaf5), Steve_2 (8667ba71b85a4004af54457a9734eed7)',
    ),
  ).toEqual({
    online: 2,
    max: 20,
    players: [
      { name: 'Alex', uuid: '069a79f4-44e9-4726-a5be-fca90e38aaf5' },
      { name: 'Steve_2', uuid: '8667ba71-b85a-4004-af54-457a9734eed7' },
    ],
  });
});

test('plain `list`, nobody online, formatting codes and older `N/M` wording', () => {
  expect(parseListOutput('There are 0 of a max of 10 players online: ')).toEqual({
    online: 0,
    max: 10,
    players: [],
  });
  expect(parseListOutput('\u00a76There are 1/5 players online:\u00a7r\nNotch')).toEqual({
    online: 1,
    max: 5,
    players: [{ name: 'Notch' }],
  });
  expect(parseListOutput('Unknown command')).toBeNull();
});
