/**
 * @module One webhook receiver for the benchmark, in its own process (fork with IPC):
 * `botlists` (our VoteWebhookServer, secret + HMAC), `botlists-ledger` (the same with the vote ledger on), `topgg-sdk` (@top-gg/sdk 3 on Express 4), `bare` (node:http, parse only).
 * Replies to the parent's 'count' message with the number of votes it delivered to user code.
 */
import { createServer } from 'node:http';

const SECRET = 'bench-secret-0123456789';
const HMAC_KEY = 'bench-hmac-key';

const kind = process.argv[2];
let votes = 0;
let port;

/** Our server's options: one load generator is one IP, so the per-IP budget is lifted (throughput, not the limiter); every delivery of the run stays remembered for replay checks. */
const webhookOptions = {
  host: '127.0.0.1',
  port: 0,
  secret: SECRET,
  security: {
    hmac: { 'top.gg': HMAC_KEY },
    rateLimit: { max: Number.MAX_SAFE_INTEGER },
    replayCapacity: 3_000_000,
  },
};

if (kind === 'botlists') {
  const { VoteWebhookServer } = await import('../dist/index.js');
  const server = new VoteWebhookServer(webhookOptions);
  server.on('vote', () => votes++);
  const address = await server.start();
  port = Number(new URL(address).port);
} else if (kind === 'botlists-ledger') {
  // The same server behind a Botlists client with the in-memory ledger: a vote counts once it is recorded.
  const { Botlists } = await import('../dist/index.js');
  const lists = new Botlists({
    disableStatusCheck: true,
    webhook: webhookOptions,
    ledger: { reminderCheckMs: 0 },
  });
  lists.ledger.on('recorded', () => votes++);
  const address = await lists.startWebhooks();
  port = Number(new URL(address).port);
} else if (kind === 'topgg-sdk') {
  const express = (await import('express')).default;
  const { Webhook } = await import('@top-gg/sdk');
  const app = express();
  const webhook = new Webhook(SECRET);
  app.post(
    '/dblwebhook',
    webhook.listener(() => {
      votes++;
    }),
  );
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  port = server.address().port;
} else if (kind === 'bare') {
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      JSON.parse(Buffer.concat(chunks).toString('utf8'));
      votes++;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  port = server.address().port;
} else {
  throw new Error(`unknown server kind ${kind}`);
}

process.on('message', (message) => {
  if (message === 'count') process.send({ votes });
});
process.on('SIGTERM', () => process.exit(0));
process.send({ port });
