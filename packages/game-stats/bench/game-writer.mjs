/**
 * @module Imitates a running game for the live-server benchmark: every interval it rewrites the
 * statistics files of some random players with higher values (as an autosave does) and logs
 * one player in and the previous one out through the fake RCON server. One of the rewritten
 * players gets a record `deaths` value, so the benchmark can time how long the change takes to
 * show at the top of the leaderboard.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createRandom } from './server-generator.mjs';

export class GameWriter {
  /** Ticks done, and how long each took until its record showed in the leaderboard (ms). */
  ticks = 0;
  visibleAfterMs = [];
  /** Ticks skipped because the previous one was still writing or waiting (a slow machine). */
  skipped = 0;
  #busy = false;
  #timer;
  #random = createRandom(7);
  #loggedIn;
  #running = Promise.resolve();

  /**
   * @param {{ dir: string, players: { uuid: string, name: string | null, layout: string }[],
   *   rcon: import('./fake-rcon.mjs').FakeRconServer, url: string, perTick?: number,
   *   intervalMs?: number }} options
   */
  constructor(options) {
    this.options = { perTick: 200, intervalMs: 5_000, ...options };
  }

  start() {
    const tick = () => {
      if (this.#busy) {
        this.skipped++;
        return;
      }
      this.#busy = true;
      this.#running = this.#tick()
        .catch((error) => console.error('writer tick failed:', error))
        .finally(() => {
          this.#busy = false;
        });
    };
    tick();
    this.#timer = setInterval(tick, this.options.intervalMs);
  }

  async stop() {
    clearInterval(this.#timer);
    await this.#running;
  }

  async #tick() {
    const { players, perTick } = this.options;
    const chosen = new Set();
    while (chosen.size < Math.min(perTick, players.length))
      chosen.add(players[Math.floor(this.#random() * players.length)]);
    const [record, ...others] = chosen;
    this.ticks++;
    // The clock only moves forward, so this beats every record of earlier ticks and earlier runs.
    const recordDeaths = Date.now();
    await this.#rewrite(record, recordDeaths);
    const written = performance.now();
    const visible = this.#waitForTop(record.uuid, recordDeaths);
    for (const player of others) await this.#rewrite(player);
    this.#logInOut();
    const shown = await visible;
    this.visibleAfterMs.push(shown ? Math.round(performance.now() - written) : Number.POSITIVE_INFINITY);
  }

  /** Raises every value a little (a player kept playing); `deaths` set when given. */
  async #rewrite(player, deaths) {
    const file = path.join(this.options.dir, 'world', ...player.layout.split('/'), `${player.uuid}.json`);
    const content = JSON.parse(await readFile(file, 'utf8'));
    for (const entries of Object.values(content.stats)) {
      for (const key of Object.keys(entries)) entries[key] += 1 + Math.floor(this.#random() * 50);
    }
    if (deaths !== undefined) content.stats['minecraft:custom']['minecraft:deaths'] = deaths;
    await writeFile(file, `${JSON.stringify(content)}\n`);
  }

  #logInOut() {
    const { rcon, players } = this.options;
    if (this.#loggedIn) rcon.online = rcon.online.filter((player) => player !== this.#loggedIn);
    const next = players[Math.floor(this.#random() * players.length)];
    this.#loggedIn = { name: next.name ?? next.uuid, uuid: next.uuid };
    rcon.online = [...rcon.online, this.#loggedIn];
  }

  /** Whether the record showed at the top within a minute. */
  async #waitForTop(uuid, deaths) {
    const top = `${this.options.url}/api/leaderboard/deaths?limit=1`;
    const deadline = performance.now() + 60_000;
    while (performance.now() < deadline) {
      const body = await (await fetch(top)).json();
      if (body.entries[0]?.uuid === uuid && body.entries[0]?.value === deaths) return true;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return false;
  }
}
