/**
 * @module Runs the real `git` binary: an argument array (never a shell), a minimal environment,
 * a timeout and an output cap. Settings a repository's own config could use to run programs
 * (hooks, fsmonitor, pagers, editors, external diff, credential prompts) are switched off on
 * the command line, which overrides every config file, and a bare repository is used only when
 * named explicitly (one planted in a project folder is never discovered). Given a `repository`,
 * git runs on exactly that `GIT_DIR` and `GIT_WORK_TREE` (git/project-repository.ts).
 */
import { execFile } from 'node:child_process';

export interface GitRunOptions {
  /** Kill git after this long; default 30 s. */
  timeoutMs?: number;
  /** Largest stdout kept; default 32 MiB. A bigger output fails with GitOutputTooLarge. */
  maxBytes?: number;
  /** Extra environment (author identity for commits). */
  env?: Record<string, string>;
  /** Pins the repository (`GIT_DIR`, `GIT_WORK_TREE`) instead of letting git discover one. */
  repository?: { gitDir: string; workTree: string };
  /** Another index file (`GIT_INDEX_FILE`), for a commit built apart from the real index. */
  indexFile?: string;
  /** Written to git's standard input. */
  input?: string;
}

export class GitFailure extends Error {
  constructor(
    readonly exitCode: number | null,
    readonly stderr: string,
    readonly kind: 'exit' | 'timeout' | 'output-too-large' | 'missing-binary',
  ) {
    super(`git failed (${kind}): ${stderr.slice(0, 500)}`);
    this.name = 'GitFailure';
  }
}

/** Overrides placed before the subcommand; `-c` wins over system, global and repository config. */
const safetyConfig = [
  '-c',
  'core.hooksPath=/dev/null',
  '-c',
  'core.fsmonitor=false',
  '-c',
  'core.pager=cat',
  '-c',
  'core.editor=false',
  '-c',
  'core.sshCommand=false',
  '-c',
  'credential.helper=',
  '-c',
  'diff.external=',
  '-c',
  'color.ui=false',
  // git >= 2.38: a bare repository is never discovered, only used when named (GIT_DIR).
  '-c',
  'safe.bareRepository=explicit',
];

/** Only what git needs: PATH to find itself, HOME for the user's identity, a fixed locale. */
function gitEnvironment(options: GitRunOptions): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: process.env.HOME ?? '/',
    LANG: 'C',
    LC_ALL: 'C',
    GIT_TERMINAL_PROMPT: '0',
    GIT_PAGER: 'cat',
    GIT_EDITOR: 'false',
    GIT_ASKPASS: 'false',
    GIT_OPTIONAL_LOCKS: '0',
    // Paths are paths: `:(glob)*` or `:!x` from a client must not be read as pathspec magic.
    GIT_LITERAL_PATHSPECS: '1',
    ...(options.repository && {
      GIT_DIR: options.repository.gitDir,
      GIT_WORK_TREE: options.repository.workTree,
    }),
    ...(options.indexFile && { GIT_INDEX_FILE: options.indexFile }),
    ...options.env,
  };
}

export async function runGit(
  cwd: string,
  args: readonly string[],
  options: GitRunOptions = {},
): Promise<string> {
  return (await execGit(cwd, args, options, false)).stdout;
}

/** Like runGit, but output beyond `maxBytes` is cut (for diffs) instead of failing. */
export function runGitTruncating(
  cwd: string,
  args: readonly string[],
  options: GitRunOptions = {},
): Promise<{ stdout: string; truncated: boolean }> {
  return execGit(cwd, args, options, true);
}

function execGit(
  cwd: string,
  args: readonly string[],
  options: GitRunOptions,
  truncate: boolean,
): Promise<{ stdout: string; truncated: boolean }> {
  const maxBytes = options.maxBytes ?? 32 * 1024 * 1024;
  return new Promise((resolve, reject) => {
    const child = execFile(
      'git',
      [...safetyConfig, ...args],
      {
        cwd,
        env: gitEnvironment(options),
        timeout: options.timeoutMs ?? 30_000,
        killSignal: 'SIGKILL',
        maxBuffer: maxBytes,
        encoding: 'utf8',
        windowsHide: true,
      },
      (error, stdout, stderr) => {
        if (!error) return resolve({ stdout, truncated: false });
        const failure = error as NodeJS.ErrnoException & {
          killed?: boolean;
          code?: unknown;
          signal?: string;
        };
        if (failure.code === 'ENOENT')
          return reject(new GitFailure(null, 'git is not installed', 'missing-binary'));
        if (failure.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER') {
          if (truncate) return resolve({ stdout, truncated: true });
          return reject(new GitFailure(null, stderr, 'output-too-large'));
        }
        if (failure.killed || failure.signal === 'SIGKILL')
          return reject(new GitFailure(null, stderr, 'timeout'));
        reject(
          new GitFailure(
            typeof failure.code === 'number' ? failure.code : null,
            `${stderr}${stdout}`,
            'exit',
          ),
        );
      },
    );
    child.stdin?.on('error', () => {});
    child.stdin?.end(options.input ?? '');
  });
}
