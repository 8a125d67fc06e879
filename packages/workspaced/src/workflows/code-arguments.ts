/**
 * @module Where a workflow command reads code, so that no run-time value lands there: the
 * arguments an interpreter runs (a shell's `-c` script, `node -e`, an awk program, every
 * argument of `ssh`), the words it may still read as options (a value `--eval=...` there would
 * become code), and the word naming the program. Interpreters are recognised wherever they
 * stand in the command, so any wrapper in front (`env`, `nice`, `sudo`, `xargs`,
 * `find -exec`...) is covered without a list; known wrappers are also followed to the program
 * they run, which a value may not name. Option arities are not tabulated: a word right after an
 * option is taken to be that option's value, so the option region never ends too early.
 */

/** How an interpreter takes code on its command line. */
type CodeRule =
  /** `c` in an option cluster makes the script the first operand (sh, bash, zsh...). */
  | { kind: 'shell'; codeLong?: readonly string[] }
  /** Code is an option's argument: `-e CODE`, `-eCODE`, `--eval CODE`, `--eval=CODE`, `eval CODE`. */
  | { kind: 'option'; letters: string; long?: readonly string[]; subcommands?: readonly string[] }
  /** The first operand is the program, unless `-e`/`-f` give it (awk, sed). */
  | { kind: 'program'; letters: string; long: readonly string[]; fileLetter: string }
  /** Every argument is code (joined into a shell command line), except after a script file. */
  | { kind: 'all'; fileOptions?: readonly string[] };

interface Interpreter {
  rule: CodeRule;
  /** Options are read anywhere on the line (GNU getopt), not only before the first operand. */
  permutes?: boolean;
}

const shell: Interpreter = { rule: { kind: 'shell' } };
const option = (letters: string, long?: readonly string[], permutes?: boolean): Interpreter => ({
  rule: { kind: 'option', letters, long },
  permutes,
});
/** One rule for several programs (`node` and `nodejs`, every POSIX shell...). */
const each = <T>(names: readonly string[], value: T) => names.map((name) => [name, value] as const);

/** Keyed by program name without directory or version suffix (`/usr/bin/python3.11` is `python`). */
const interpreters = new Map<string, Interpreter>([
  ...each(
    ['sh', 'bash', 'rbash', 'dash', 'ash', 'ksh', 'mksh', 'lksh', 'zsh', 'yash', 'posh', 'csh', 'tcsh'],
    shell,
  ),
  ['fish', { rule: { kind: 'shell', codeLong: ['command', 'init-command'] } }],
  ...each(
    ['node', 'nodejs'],
    option('epr', ['eval', 'print', 'require', 'import', 'loader', 'experimental-loader']),
  ),
  ['bun', option('epr', ['eval', 'print', 'preload'], true)],
  ['deno', { rule: { kind: 'option', letters: '', long: ['eval'], subcommands: ['eval'] }, permutes: true }],
  ['perl', option('eEmM')],
  ...each(['python', 'pypy'], option('cm')),
  ['ruby', option('er')],
  ['php', option('rBREd')],
  ...each(['lua', 'luajit'], option('el')),
  ...each(['R', 'Rscript', 'osascript', 'groovy'], option('e')),
  ['julia', option('eE', ['eval', 'print'])],
  ['elixir', option('er', ['eval'])],
  // Programs that hand a string to a shell.
  ['env', option('S', ['split-string'])],
  ...each(['su', 'runuser'], option('c', ['command', 'session-command'], true)),
  ...each(['flock', 'script'], option('c', ['command'], true)),
  ...each<Interpreter>(['watch', 'ssh', 'parallel'], { rule: { kind: 'all' } }),
  ...each<Interpreter>(['pwsh', 'powershell'], { rule: { kind: 'all', fileOptions: ['-file', '-f'] } }),
  ...each<Interpreter>(['awk', 'gawk', 'mawk', 'nawk'], {
    rule: { kind: 'program', letters: 'e', long: ['source'], fileLetter: 'f' },
  }),
  ['sed', { rule: { kind: 'program', letters: 'e', long: ['expression'], fileLetter: 'f' }, permutes: true }],
]);

/** Programs that run the program named after their options, and how many operands come first. */
const wrappers = new Map<string, { operands: number; assignments?: boolean }>([
  ['env', { operands: 0, assignments: true }],
  ...each(['nice', 'nohup', 'stdbuf', 'ionice', 'xargs', 'setsid', 'time', 'busybox'], { operands: 0 }),
  // As another user, or as the shell's own builtins do.
  ...each(['sudo', 'doas', 'command', 'exec'], { operands: 0 }),
  // timeout DURATION, chrt PRIORITY, taskset MASK, flock FILE, chroot DIR.
  ...each(['timeout', 'chrt', 'taskset', 'flock', 'chroot'], { operands: 1 }),
]);

interface PlaceholderTest {
  /** The word holds a placeholder. */
  has(word: string): boolean;
  /** The word begins with a placeholder (its value could begin with `-`). */
  leads(word: string): boolean;
}

/** The program a word names: no directory, no version suffix (`python3.11`, `ksh93`). */
function programName(word: string): string {
  return word.slice(word.lastIndexOf('/') + 1).replace(/(?<=[A-Za-z])[0-9][0-9.]*$/, '');
}

const isOption = (word: string) => word.length > 1 && word.startsWith('-') && word !== '--';
const isShellOption = (word: string) => isOption(word) || (word.length > 1 && word.startsWith('+'));
/** A single-dash cluster such as `-lc` or `-eCODE` (not `--long`). */
const isCluster = (word: string) => isOption(word) && !word.startsWith('--');
const longName = (word: string) => word.slice(2).split('=')[0]!;

/** Why the words cannot be a workflow command, or undefined when every placeholder is data. */
export function codePlaceholderReason(
  words: readonly string[],
  placeholder: PlaceholderTest,
): string | undefined {
  const named = followWrappers(words, placeholder);
  if (named) return named;
  for (let at = 0; at < words.length; at++) {
    const name = programName(words[at]!);
    const interpreter = interpreters.get(name);
    if (!interpreter) continue;
    const { rule } = interpreter;
    const optionTest = rule.kind === 'shell' ? isShellOption : isOption;
    const operand = interpreter.permutes
      ? afterDoubleDash(words, at + 1)
      : firstOperand(words, at + 1, (word) => optionTest(word) || placeholder.leads(word));
    if (rule.kind !== 'all' && words.slice(at + 1, operand).some(placeholder.leads))
      return `a placeholder where ${name} reads options could become one (-e, -c, --eval...); put it after the script, or after --`;
    const code = codeWords(words, at, operand, rule);
    if (code.some((index) => placeholder.has(words[index]!)))
      return `a placeholder in the code ${name} runs would run as code; pass the value as an argument after it (sh -c '... "$1"' step {{name}})`;
    // What follows inline code is that code's arguments ($0, $1...), not a command of its own.
    if (code.length > 0) break;
  }
  return undefined;
}

/**
 * Index of the first operand from `from`: options are skipped, and so is a word right after an
 * option (it may be the option's value). `--` ends the options.
 */
function firstOperand(words: readonly string[], from: number, optionTest: (word: string) => boolean): number {
  let afterOption = false;
  for (let index = from; index < words.length; index++) {
    const word = words[index]!;
    if (word === '--') return index + 1;
    if (optionTest(word)) afterOption = true;
    else if (afterOption) afterOption = false;
    else return index;
  }
  return words.length;
}

function afterDoubleDash(words: readonly string[], from: number): number {
  const dashes = words.indexOf('--', from);
  return dashes === -1 ? words.length : dashes + 1;
}

/** Indexes of the words that are (or may be) code for the interpreter at `at`. */
function codeWords(words: readonly string[], at: number, operand: number, rule: CodeRule): number[] {
  const code: number[] = [];
  const range = (from: number, to: number) => {
    for (let index = from; index <= Math.min(to, words.length - 1); index++) code.push(index);
  };
  if (rule.kind === 'all') {
    const file = words.findIndex(
      (word, index) => index > at && rule.fileOptions?.includes(word.toLowerCase()),
    );
    range(at + 1, file === -1 ? words.length - 1 : file + 1);
    return code;
  }
  let fromOption = false;
  for (let index = at + 1; index < operand && index < words.length; index++) {
    const word = words[index]!;
    if (rule.kind === 'shell') {
      // The script is the first operand after `-c`; everything from `-c` to it counts.
      if (isCluster(word) && word.slice(1).includes('c')) range(index, operand);
      if (word.startsWith('--') && rule.codeLong?.includes(longName(word))) range(index, operand);
      continue;
    }
    if (isCluster(word)) {
      const letters = word.slice(1);
      const position = [...letters].findIndex((letter) => rule.letters.includes(letter));
      if (position === -1) continue;
      fromOption = fromOption || rule.kind === 'program';
      range(index, position === letters.length - 1 ? index + 1 : index);
    } else if (word.startsWith('--') && rule.long?.includes(longName(word))) {
      fromOption = true;
      range(index, word.includes('=') ? index : index + 1);
    }
  }
  if (rule.kind === 'option')
    for (let index = at + 1; index < words.length; index++)
      if (rule.subcommands?.includes(words[index]!)) range(index, index + 1);
  if (rule.kind === 'program' && !fromOption) {
    const fromFile = words
      .slice(at + 1, operand)
      .some((word) => (isCluster(word) && word.includes(rule.fileLetter)) || word.startsWith('--file'));
    if (!fromFile) range(operand, operand);
  }
  return code;
}

/** Follows wrappers from the first word to the program they run; a value names none of them. */
function followWrappers(words: readonly string[], placeholder: PlaceholderTest): string | undefined {
  const named = 'a placeholder cannot name the program to run, nor stand where a wrapper reads its options';
  for (let at = 0; at < words.length; ) {
    if (placeholder.has(words[at]!)) return named;
    const wrapper = wrappers.get(programName(words[at]!));
    if (!wrapper) return undefined;
    let program = firstOperand(words, at + 1, isOption);
    while (wrapper.assignments && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[program] ?? '')) program++;
    program += wrapper.operands;
    if (words.slice(at + 1, program).some(placeholder.leads)) return named;
    at = program;
  }
  return undefined;
}
