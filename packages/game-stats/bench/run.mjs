/**
 * @module Entry of `npm run bench -w packages/game-stats`: with `-- live`, the live-server
 * benchmark (live.mjs); otherwise the throughput benchmark against the naive baseline
 * (throughput.mjs).
 */
await import(process.argv[2] === 'live' ? './live.mjs' : './throughput.mjs');
