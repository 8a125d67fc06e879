/**
 * @module The fake game RCON server of the tests (shared with the live-server benchmark).
 */
export { FakeRconServer } from '../../bench/fake-rcon.mjs';
