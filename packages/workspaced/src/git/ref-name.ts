/**
 * @module Checks a branch or revision name from a client before it reaches git: the rules of
 * git-check-ref-format(1) that matter for safety, plus "never starts with `-`" so a name can
 * never be read as an option. git applies its full rules after this.
 */
import { ApiError } from '../http/api-error.js';

const maxRefLength = 200;

/** Characters git forbids in ref names (git-check-ref-format rule 4 and 5). */
const forbidden = new Set([' ', '~', '^', ':', '?', '*', '[', '\\', '\x7f']);

export function checkRefName(name: string, what = 'branch name'): string {
  const bad = (reason: string) => new ApiError('INVALID_REF_NAME', `${what} ${reason}`);
  if (name.length === 0 || name.length > maxRefLength) throw bad(`must be 1-${maxRefLength} characters`);
  if (name.startsWith('-')) throw bad('must not start with "-"');
  if (name.startsWith('/') || name.endsWith('/') || name.endsWith('.') || name.endsWith('.lock'))
    throw bad('must not start or end with "/", or end with "." or ".lock"');
  if (name.includes('..') || name.includes('@{') || name.includes('//') || name === '@')
    throw bad('must not contain "..", "@{" or "//"');
  for (const char of name) {
    if (char < ' ' || forbidden.has(char)) throw bad(`must not contain ${JSON.stringify(char)}`);
  }
  if (name.split('/').some((part) => part.startsWith('.')))
    throw bad('must not have a part starting with "."');
  return name;
}

/**
 * A revision for `log` (`main`, `HEAD~2`, `v1.0..main`): revision syntax is allowed, but never a
 * leading `-`, whitespace or control characters. It is passed after `--end-of-options` as well.
 */
export function checkRevision(revision: string): string {
  const bad = (reason: string) => new ApiError('INVALID_REF_NAME', `ref ${reason}`);
  if (revision.length === 0 || revision.length > maxRefLength)
    throw bad(`must be 1-${maxRefLength} characters`);
  if (revision.startsWith('-')) throw bad('must not start with "-"');
  for (const char of revision)
    if (char <= ' ' || char === '\x7f') throw bad('must not contain spaces or control characters');
  return revision;
}
