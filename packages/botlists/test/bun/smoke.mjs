/**
 * @module Smoke run of the BUILT package's main features; run under Bun (and Node) by test/bun.test.ts.
 * Prints one JSON line of observations.
 */
import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import { Botlists, lists, resolveList, StatusChecker, UniversalParser } from '../../dist/index.js';

const seen = [];
const fake = createServer((req, res) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    seen.push({ method: req.method, url: req.url, auth: req.headers.authorization ?? null, body });
    res.writeHead(req.url.includes('/api/webhooks/') ? 204 : 200, { 'content-type': 'application/json' });
    res.end(req.url.includes('/api/webhooks/') ? undefined : '{}');
  });
});
await new Promise((r) => fake.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${fake.address().port}`;

const secret = 'whs_smoke';
const client = new Botlists({
  botId: '111111111111111111',
  env: { 'LIST_TOKEN_TOP.GG': 'tok' },
  lists: [{ id: 'top.gg', apiPost: `${base}/top.gg/api/bots/:id/stats` }],
  postSpacingMs: 0,
  webhook: { host: '127.0.0.1', port: 0, secret },
  announcer: {
    enabled: true,
    format: 'embed-v2',
    webhooks: [`${base}/api/webhooks/1/tok`],
    minIntervalMs: 0,
  },
});
const report = await client.postStats({ serverCount: 12, shards: [] });
const votes = [];
client.on('vote', (v) => votes.push(v.voterId));
const address = await client.startWebhooks();
const raw = JSON.stringify({ vote: { userId: '42', botId: '111111111111111111', type: 'vote' } });
const t = Math.floor(Date.now() / 1000);
const sig = `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${raw}`).digest('hex')}`;
const good = await fetch(`${address}/top.gg`, {
  method: 'POST',
  headers: { 'x-topgg-signature': sig },
  body: raw,
});
const bad = await fetch(`${address}/top.gg`, {
  method: 'POST',
  headers: { 'x-topgg-signature': sig.replace(/.$/, '0') },
  body: `${raw} `,
});
await client.announcer.idle();
await client.stopWebhooks();
const board = await new StatusChecker({ lists: [lists[0]], baseUrl: base }).refresh();
fake.close();
// Auto-posting once a day arms the hourly status probe too; neither timer may keep the process alive.
const longRunning = new Botlists({ botId: '1', env: {}, tokens: {} });
longRunning.startAutoPost(86_400_000, { serverCount: 1 });

console.log(
  JSON.stringify({
    runtime: typeof Bun === 'undefined' ? 'node' : 'bun',
    lists: lists.length,
    resolved: resolveList('topgg')?.id,
    posted: report.posted.map((r) => r.listId),
    postBody: seen[0]?.body,
    webhook: [good.status, bad.status],
    votes,
    announced: seen.some((s) => s.url === '/api/webhooks/1/tok?with_components=true'),
    status: board.entries[0].state,
    statusScheduled: longRunning.isCheckingStatus,
    parsed: UniversalParser.parseBot('top.gg', { id: '1', username: 'x', server_count: '5' }).serverCount,
  }),
);
