import { expect, test } from 'vitest';
import { isLoopbackHost } from '../src/index.js';

test.each([
  ['localhost', true],
  ['LOCALHOST', true],
  ['127.0.0.1', true],
  ['127.255.0.9', true],
  ['::1', true],
  ['[::1]', true],
  ['0:0:0:0:0:0:0:1', true],
  ['::ffff:127.0.0.1', true],
  ['::ffff:127.0.0.2', true],
  ['[::FFFF:127.0.0.1]', true],
  ['0.0.0.0', false],
  ['::', false],
  ['128.0.0.1', false],
  ['10.0.0.1', false],
  ['::ffff:10.0.0.1', false],
  ['::2', false],
  ['localhost.example.com', false],
  ['127.0.0.1.example.com', false],
  ['', false],
])('isLoopbackHost(%j) is %s', (host, expected) => {
  expect(isLoopbackHost(host)).toBe(expected);
});
