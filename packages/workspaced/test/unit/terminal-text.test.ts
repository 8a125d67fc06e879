/**
 * @module Tests: an ended agent's output as the task view shows it, expected values written by
 * hand: colours, titles and charset switches gone, CRLF a line end, a redrawn line as last drawn.
 */
import { expect, test } from 'vitest';
import { terminalText } from '../../src/terminals/terminal-text.js';

test('escapes go, tabs stay, CRLF ends a line', () => {
  expect(terminalText('\u001b]0;claude\u0007\u001b(B\u001b[1;31merror:\u001b[0m\tdone\r\nnext\r\n')).toBe(
    'error:\tdone\nnext\n',
  );
});

test('a line redrawn after a bare CR shows as last drawn; other controls are dropped', () => {
  expect(terminalText('⠋ working\r⠙ working\r✓ finished\nbell\u0007 and\u0008 del\u007f\n')).toBe(
    '✓ finished\nbell and del\n',
  );
});
