/**
 * @module The fake game RCON server of the tests (shared with the live-server benchmark).
 */
export { type FakePlayer, FakeRconServer } from '../../bench/fake-rcon.mjs';
