/**
 * @module The imitated game of the live-server benchmark, in its own process so that the load
 * generator's busy event loop does not slow it (nor inflate the time it measures until a change
 * shows): a fake RCON server and the writer. Driven over IPC by live.mjs:
 * `{type: 'start', dir, players, url}` → `{type: 'rcon', port}` once listening; `{type: 'write'}`
 * starts the writer; `{type: 'stop'}` → `{type: 'stopped', ticks, skipped, visibleAfterMs}`.
 */
import { FakeRconServer } from './fake-rcon.mjs';
import { GameWriter } from './game-writer.mjs';

export const rconPassword = 'bench-password';
/** Players online from the start (the writer logs one more in and out on each tick). */
const alwaysOnline = 20;

let rcon;
let writer;
let setup;

process.on('message', async (message) => {
  if (message.type === 'start') {
    setup = message;
    rcon = new FakeRconServer(rconPassword);
    await rcon.start();
    rcon.max = 500;
    rcon.online = setup.players
      .slice(0, alwaysOnline)
      .map((player) => ({ name: player.name ?? player.uuid, uuid: player.uuid }));
    process.send({ type: 'rcon', port: rcon.port });
  } else if (message.type === 'write') {
    writer = new GameWriter({ dir: setup.dir, players: setup.players, rcon, url: message.url });
    writer.start();
  } else if (message.type === 'stop') {
    await writer?.stop();
    await rcon?.stop();
    process.send({
      type: 'stopped',
      ticks: writer?.ticks ?? 0,
      skipped: writer?.skipped ?? 0,
      visibleAfterMs: writer?.visibleAfterMs ?? [],
    });
    process.disconnect();
  }
});
