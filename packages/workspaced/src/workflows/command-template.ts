/**
 * @module A workflow step's `command` as an argument array, never a shell string. The text is
 * split into words once, when the workflow is defined: blanks separate words, `'...'` and
 * `"..."` group them (inside double quotes `\"` and `\\` escape), a backslash outside quotes
 * takes the next character literally. `{{name}}` placeholders (a letter or `_` first, then
 * letters, digits, `_`; at most 64) are replaced at start by the variable's value inside the
 * word that holds them, so a value stays one literal argument whatever characters it holds.
 * A placeholder where the command reads code (the script of `sh -c`, `node -e`, behind any
 * wrapper: workflows/code-arguments.ts) or names the program is refused. Pass it as a positional
 * argument instead (`sh -c 'printf "%s" "$1"' step {{name}}`).
 */
import { codePlaceholderReason } from './code-arguments.js';

export class CommandSyntaxError extends Error {}

const placeholder = /\{\{([A-Za-z_][A-Za-z0-9_]{0,63})\}\}/g;

const blank = (char: string) => char === ' ' || char === '\t' || char === '\n' || char === '\r';

/** Splits `command` into words (quotes removed); throws CommandSyntaxError. */
export function splitCommand(command: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < command.length; i++) {
    const char = command[i]!;
    if (quote === "'") {
      if (char === "'") quote = undefined;
      else word += char;
    } else if (quote === '"') {
      if (char === '"') quote = undefined;
      else if (char === '\\' && (command[i + 1] === '"' || command[i + 1] === '\\')) word += command[++i];
      else word += char;
    } else if (blank(char)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (char === "'" || char === '"') {
      quote = char;
      word ??= '';
    } else if (char === '\\') {
      if (i + 1 >= command.length) throw new CommandSyntaxError('the command ends with a lone backslash');
      word = (word ?? '') + command[++i];
    } else word = (word ?? '') + char;
  }
  if (quote) throw new CommandSyntaxError(`the command has an unterminated ${quote} quote`);
  if (word !== undefined) words.push(word);
  if (words.length === 0) throw new CommandSyntaxError('the command is empty');
  for (const each of words) checkPlaceholders(each);
  const reason = codePlaceholderReason(words, {
    has: (word) => placeholdersIn([word]).size > 0,
    leads: (word) => word.search(placeholder) === 0,
  });
  if (reason) throw new CommandSyntaxError(reason);
  return words;
}

function checkPlaceholders(word: string): void {
  if (word.includes('\0')) throw new CommandSyntaxError('the command holds a NUL character');
  if (word.replace(placeholder, '').includes('{{'))
    throw new CommandSyntaxError(
      'a placeholder is {{name}}: a letter or _ first, then letters, digits or _ (at most 64)',
    );
}

/** The variable names the words refer to. */
export function placeholdersIn(words: readonly string[]): Set<string> {
  const names = new Set<string>();
  for (const word of words) for (const match of word.matchAll(placeholder)) names.add(match[1]!);
  return names;
}

/** Replaces every placeholder; each word stays one argument. Every name must be in `values`. */
export function substitute(words: readonly string[], values: Readonly<Record<string, string>>): string[] {
  return words.map((word) =>
    word.replace(placeholder, (_match, name: string) => {
      const value = values[name];
      if (value === undefined) throw new Error(`variable ${name} has no value`);
      return value;
    }),
  );
}
