/**
 * @module The daemon's config file (`--config`, default `<data dir>/config.json`): JSON with
 * `agent_profiles`, a list of profiles (agent-profiles.ts). Read once at start-up; a file that
 * is not valid stops the daemon with the reason, rather than starting without the profiles the
 * operator meant to have. A missing default file means no extra profiles.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { type AgentProfile, profileSchema } from './agent-profiles.js';

const configFileName = 'config.json';

const configSchema = z
  .object({
    agent_profiles: z
      .array(profileSchema)
      .max(100)
      .refine((profiles) => new Set(profiles.map((profile) => profile.name)).size === profiles.length, {
        message: 'profile names must be unique',
      })
      .default([]),
  })
  .strict();

export class ConfigFileInvalid extends Error {}

/** The configured profiles; `file` undefined reads the data dir's config.json if there is one. */
export async function readConfiguredProfiles(dataDir: string, file?: string): Promise<AgentProfile[]> {
  const where = file ?? path.join(dataDir, configFileName);
  let text: string;
  try {
    text = await readFile(where, 'utf8');
  } catch (error) {
    if (file === undefined && (error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new ConfigFileInvalid(`cannot read the config file ${where}: ${(error as Error).message}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ConfigFileInvalid(`the config file ${where} is not valid JSON`);
  }
  const parsed = configSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigFileInvalid(
      `the config file ${where}: ${issue.path.join('.') || '(top)'}: ${issue.message}`,
    );
  }
  return parsed.data.agent_profiles;
}
