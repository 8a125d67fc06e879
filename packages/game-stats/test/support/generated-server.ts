/**
 * @module A generated server folder in a temp directory, plus expectations computed straight
 * from the generated data (never from the code under test).
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type GeneratedPlayer, type GenerateOptions, generateServer } from '../../bench/server-generator.mjs';

export interface GeneratedServer {
  dir: string;
  players: GeneratedPlayer[];
  /** Players with a readable modern file. */
  valid: GeneratedPlayer[];
  remove: () => Promise<void>;
}

export async function createServerFolder(options: GenerateOptions): Promise<GeneratedServer> {
  const dir = await mkdtemp(path.join(tmpdir(), 'game-stats-test-'));
  const players = await generateServer(dir, options);
  return {
    dir,
    players,
    valid: players.filter((player) => player.stats !== null),
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}

export function custom(player: GeneratedPlayer, key: string): number {
  return player.stats?.['minecraft:custom']?.[`minecraft:${key}`] ?? 0;
}

export function categorySum(player: GeneratedPlayer, category: string): number {
  return Object.values(player.stats?.[`minecraft:${category}`] ?? {}).reduce((sum, value) => sum + value, 0);
}

/** Adds a usercache entry for a player who never got a statistics file. */
export async function addUsercacheOnlyPlayer(dir: string, name: string, uuid: string) {
  const file = path.join(dir, 'usercache.json');
  const entries = JSON.parse(await readFile(file, 'utf8')) as unknown[];
  entries.push({ name, uuid, expiresOn: '2026-12-30 10:00:00 +0000' });
  await writeFile(file, JSON.stringify(entries));
}
