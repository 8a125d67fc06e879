/**
 * @module Escapes a value from a vote (voter name, list name, ids) before it enters a Markdown template.
 */

/**
 * Characters that start Discord Markdown: bold/italic/underline/strike/spoiler markers, code,
 * quotes, masked links `[..](..)`, mentions `<@..>` and `@everyone`, emoji `:x:` and autolinked
 * URLs (`https\://` no longer links), headings and list markers. Discord treats a backslash before
 * any ASCII punctuation as a literal, so the escaped value renders exactly as the voter wrote it.
 */
const MARKDOWN_SYNTAX = /[\\*_~`|<>[\]#\-+:@]|(?<=\d)\./g;

/**
 * Line breaks and other control characters become spaces first, so a value can never open a
 * heading, quote, list or `-#` subtext line of its own.
 */
export function escapeMarkdown(value: string): string {
  return value.replace(/[\p{Cc}\u2028\u2029]/gu, ' ').replace(MARKDOWN_SYNTAX, '\\$&');
}
