/**
 * @module The generated server folder a benchmark runs on: created once under the temp folder
 * (never in the checkout) and reused by later runs, with the players it holds.
 */
import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { generateServer } from './server-generator.mjs';

/**
 * Returns the folder of `players` generated players (made on first use) and a list of
 * `{uuid, name, layout}` for every player in it.
 * @param {{ players: number, shape?: 'default' | 'casual', dir?: string }} options
 */
export async function benchFolder({ players, shape = 'default', dir }) {
  const folder =
    dir ?? path.join(os.tmpdir(), `game-stats-${shape === 'casual' ? 'live' : 'bench'}-${players}`);
  const marker = path.join(folder, '.complete');
  if (existsSync(marker)) {
    console.log(`reusing generated server in ${folder}`);
    return { dir: folder, players: JSON.parse(await readFile(marker, 'utf8')) };
  }
  await rm(folder, { recursive: true, force: true });
  console.log(`generating ${players} players in ${folder} ...`);
  const started = performance.now();
  const generated = await generateServer(folder, {
    players,
    seed: 2026,
    compact: true,
    newLayoutShare: 0.3,
    shape,
  });
  const roster = generated.map(({ uuid, name, layout }) => ({ uuid, name, layout }));
  await writeFile(marker, JSON.stringify(roster));
  console.log(`generated in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return { dir: folder, players: roster };
}
