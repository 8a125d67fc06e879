/**
 * @module Tests: how a step's `command` becomes an argument array (quotes, escapes, refused
 * forms) and that a substituted value is always one literal argument, whatever it holds.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  CommandSyntaxError,
  placeholdersIn,
  splitCommand,
  substitute,
} from '../src/workflows/command-template.js';

describe('splitCommand', () => {
  test.each([
    ['printf %s {{x}}', ['printf', '%s', '{{x}}']],
    ['  git   commit\t-m  "a b"  ', ['git', 'commit', '-m', 'a b']],
    ['echo \'a "b" $HOME\' "c \\"d\\" \\\\ \\n"', ['echo', 'a "b" $HOME', 'c "d" \\ \\n']],
    ['echo a\\ b \\$x', ['echo', 'a b', '$x']],
    ['echo \'\' ""', ['echo', '', '']],
    ['echo pre{{a}}mid{{b}}post', ['echo', 'pre{{a}}mid{{b}}post']],
    ['sh -c \'printf "%s" "$1"\' step {{x}}', ['sh', '-c', 'printf "%s" "$1"', 'step', '{{x}}']],
  ])('%s', (command, words) => {
    expect(splitCommand(command)).toEqual(words);
  });

  test.each([
    ['', 'empty'],
    ['   ', 'empty'],
    ["echo 'open", 'unterminated'],
    ['echo "open', 'unterminated'],
    ['echo \\', 'backslash'],
    ['echo {{ x }}', 'placeholder'],
    ['echo {{9}}', 'placeholder'],
    ['echo {{x}', 'placeholder'],
    ["sh -c 'echo {{x}}'", 'run as code'],
    ["/bin/bash -lc 'echo {{x}}'", 'run as code'],
    ['zsh -e -c {{x}}', 'could become one'],
    ['{{x}} --version', 'name the program'],
  ])('refuses %s', (command, reason) => {
    expect(() => splitCommand(command)).toThrow(CommandSyntaxError);
    expect(() => splitCommand(command)).toThrow(reason);
  });
});

describe('substitute', () => {
  test('replaces each placeholder inside its own word', () => {
    const words = splitCommand('git commit -m "fix: {{title}} ({{id}})"');
    expect([...placeholdersIn(words)]).toEqual(['title', 'id']);
    expect(substitute(words, { title: '$(rm -rf ~)', id: '$&' })).toEqual([
      'git',
      'commit',
      '-m',
      'fix: $(rm -rf ~) ($&)',
    ]);
  });

  test('any value becomes exactly one argument, unchanged', () => {
    fc.assert(
      fc.property(fc.string(), (value) => {
        expect(substitute(splitCommand('printf %s {{v}}'), { v: value })).toEqual(['printf', '%s', value]);
      }),
    );
  });
});
