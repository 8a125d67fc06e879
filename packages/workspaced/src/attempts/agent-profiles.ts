/**
 * @module Agent profiles: how to start one coding agent without a person at its keyboard,
 * `{name, command, args, env, prompt_via}`. The prompt reaches the agent as an argument (the
 * `{prompt}` placeholder in `args`), on its standard input (`stdin`), or in a file whose path
 * replaces `{prompt_file}` (`file`); never through a shell. Built-in profiles use each agent's
 * documented non-interactive mode (README "Agent profiles" names the reference of each); the
 * config file adds profiles or replaces a built-in of the same name.
 */
import { z } from 'zod';

const promptVias = ['argument', 'stdin', 'file'] as const;
type PromptVia = (typeof promptVias)[number];

export const promptPlaceholder = '{prompt}';
export const promptFilePlaceholder = '{prompt_file}';

export interface AgentProfile {
  name: string;
  /** A program name looked up on the daemon's PATH, or an absolute path. */
  command: string;
  args: string[];
  env: Record<string, string>;
  prompt_via: PromptVia;
}

const noNul = (value: string) => !value.includes('\0');
const envName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,255}$/, 'not a valid environment variable name');

export const profileSchema = z
  .object({
    name: z
      .string()
      .regex(/^[a-z0-9][a-z0-9._-]{0,63}$/, '1-64 of a-z 0-9 . _ -, starting with a letter or digit'),
    command: z
      .string()
      .min(1)
      .max(4_096)
      .refine(noNul, 'contains a NUL byte')
      .refine(
        (command) => !command.includes('/') || command.startsWith('/'),
        'a program name or an absolute path',
      ),
    args: z.array(z.string().max(4_096).refine(noNul, 'contains a NUL byte')).max(64).default([]),
    env: z
      .record(
        envName,
        z
          .string()
          .max(32 * 1024)
          .refine(noNul, 'contains a NUL byte'),
      )
      .refine((env) => Object.keys(env).length <= 64, 'at most 64 variables')
      .default({}),
    prompt_via: z.enum(promptVias),
  })
  .strict()
  .superRefine((profile, ctx) => {
    const uses = (placeholder: string) => profile.args.some((arg) => arg.includes(placeholder));
    const wanted = { argument: promptPlaceholder, file: promptFilePlaceholder, stdin: undefined }[
      profile.prompt_via
    ];
    if (wanted !== undefined && !uses(wanted))
      ctx.addIssue({
        code: 'custom',
        path: ['args'],
        message: `prompt_via ${profile.prompt_via} needs ${wanted} in args`,
      });
    for (const placeholder of [promptPlaceholder, promptFilePlaceholder])
      if (placeholder !== wanted && uses(placeholder))
        ctx.addIssue({
          code: 'custom',
          path: ['args'],
          message: `${placeholder} has no value with prompt_via ${profile.prompt_via}`,
        });
  });

/** The built-in profiles; each one's flags and source are in the README ("Agent profiles"). */
export const builtInProfiles: readonly AgentProfile[] = [
  // `claude -p` (print mode) answers and exits; acceptEdits lets it edit files without asking.
  {
    name: 'claude',
    command: 'claude',
    args: ['-p', '--permission-mode', 'acceptEdits', promptPlaceholder],
    env: {},
    prompt_via: 'argument',
  },
  // `codex exec` is Codex's non-interactive mode; `-` reads the prompt from standard input;
  // workspace-write lets it edit the worktree (read-only by default).
  {
    name: 'codex',
    command: 'codex',
    args: ['exec', '--sandbox', 'workspace-write', '-'],
    env: {},
    prompt_via: 'stdin',
  },
  // `gemini --prompt` runs headless; --yolo accepts its tool calls.
  {
    name: 'gemini',
    command: 'gemini',
    args: ['--yolo', '--prompt', promptPlaceholder],
    env: {},
    prompt_via: 'argument',
  },
  // `opencode run <message>` runs one prompt and exits.
  {
    name: 'opencode',
    command: 'opencode',
    args: ['run', promptPlaceholder],
    env: {},
    prompt_via: 'argument',
  },
  // `aider --message-file` processes the file's message and exits; --yes-always confirms.
  {
    name: 'aider',
    command: 'aider',
    args: ['--yes-always', '--message-file', promptFilePlaceholder],
    env: {},
    prompt_via: 'file',
  },
  // `cursor-agent --print` is its headless mode; --force lets it write files.
  {
    name: 'cursor-agent',
    command: 'cursor-agent',
    args: ['--print', '--force', promptPlaceholder],
    env: {},
    prompt_via: 'argument',
  },
];

/** Built-ins first, in their order; a configured profile replaces the built-in of its name. */
export function mergeProfiles(configured: readonly AgentProfile[]): AgentProfile[] {
  const byName = new Map<string, AgentProfile>(builtInProfiles.map((profile) => [profile.name, profile]));
  for (const profile of configured) byName.set(profile.name, profile);
  return [...byName.values()];
}
