/**
 * @module Parses a client-given project path into safe segments before the file system sees it:
 * relative POSIX paths only; NUL, backslashes, `..` and absolute paths are refused outright
 * (a `..` that would stay inside the root is refused too: there is no reason to send one).
 */
import { ApiError } from '../http/api-error.js';

/** Linux PATH_MAX and NAME_MAX. */
const maxPathBytes = 4096;
const maxSegmentBytes = 255;

const invalid = (message: string) => new ApiError('INVALID_PATH', message);

/** `''`, `'.'` and `'./'` name the project root (no segments). */
export function parseRelativePath(input: string): string[] {
  if (Buffer.byteLength(input) > maxPathBytes) throw invalid(`path is longer than ${maxPathBytes} bytes`);
  if (input.includes('\0')) throw invalid('path contains a NUL byte');
  if (input.includes('\\')) throw invalid('path contains a backslash; use / between segments');
  if (input.startsWith('/')) throw invalid('path must be relative to the project root');
  const segments: string[] = [];
  for (const segment of input.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') throw invalid('path must not contain ".." segments');
    if (Buffer.byteLength(segment) > maxSegmentBytes)
      throw invalid(`a path segment is longer than ${maxSegmentBytes} bytes`);
    segments.push(segment);
  }
  return segments;
}
