/**
 * @module Tests (issue 23, item 2): a custom event cannot crash the daemon. Through the bin, with
 * a `*` webhook enabled and a token holding only the `events` scope: `data` nested 4,000 arrays
 * deep is refused (422 `DATA_TOO_DEEP`, as is 33 levels; 32 pass and are delivered) and the
 * daemon still answers `/api/v1/health`; a stray unhandled rejection inside the bin is logged
 * and the process keeps serving.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Client, type RunningDaemon, removeDataDir, startDaemon } from './support/daemon.js';
import { startProjectDaemon, stopProjectDaemon } from './support/project-daemon.js';
import { WebhookReceiver } from './support/webhook-receiver.js';

/** `{"level": [[[...]]]}` with `depth` levels counting `data` itself, as raw JSON text. */
const nestedData = (depth: number) => `{"level":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`;

describe('POST /events with hostile data', () => {
  let daemon: RunningDaemon;
  let owner: Client;
  let receiver: WebhookReceiver;
  let projectId: number;
  let eventsToken: string;

  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    ({ daemon, owner, projectId } = await startProjectDaemon('events', {
      args: ['--allow-private-targets', '--delivery-retry-delays-ms', ''],
    }));
    const hook = await owner.post('/webhooks', { name: 'all', url: `${receiver.url}/all`, events: ['*'] });
    expect(hook.status).toBe(201);
    eventsToken = (await owner.post('/tokens', { name: 'publisher', scopes: ['events'] })).body.secret;
  });

  afterAll(async () => {
    await stopProjectDaemon(daemon);
    await receiver?.close();
  });

  const publish = async (data: string) => {
    const response = await fetch(`${daemon.url}/api/v1/events`, {
      method: 'POST',
      headers: { authorization: `Bearer ${eventsToken}`, 'content-type': 'application/json' },
      body: `{"stream":"project:${projectId}","type":"deploy.nested","data":${data},"critical":true}`,
    });
    // biome-ignore lint/suspicious/noExplicitAny: error bodies are inspected field by field
    return { status: response.status, body: (await response.json()) as any };
  };

  test('data 4,000 (or 100,000) arrays deep answers 422 DATA_TOO_DEEP and the daemon keeps serving', async () => {
    for (const depth of [4_000, 100_000]) {
      const answer = await publish(nestedData(depth));
      expect(answer.status).toBe(422);
      expect(answer.body.error).toMatchObject({ code: 'DATA_TOO_DEEP', max_depth: 32 });
    }
    expect((await fetch(`${daemon.url}/api/v1/health`)).status).toBe(200);
    expect(daemon.child.exitCode).toBeNull();
  });

  test('33 levels are refused; 32 are published and delivered to the webhook', async () => {
    expect((await publish(nestedData(33))).body.error.code).toBe('DATA_TOO_DEEP');
    const accepted = await publish(nestedData(32));
    expect(accepted.status).toBe(202);
    const [delivery] = await receiver.waitFor('/all');
    expect(JSON.parse(delivery!.body)).toMatchObject({ event: 'deploy.nested', seq: accepted.body.seq });
  });

  test('data over 64 KiB serialized answers 413 BODY_TOO_LARGE', async () => {
    const answer = await publish(JSON.stringify({ blob: 'x'.repeat(64 * 1024) }));
    expect(answer.status).toBe(413);
    expect(answer.body.error.code).toBe('BODY_TOO_LARGE');
  });
});

test('an unhandled rejection inside the bin is logged and the daemon keeps serving', async () => {
  // Preloaded into the bin: SIGUSR2 makes a promise reject with nobody to catch it.
  const preload = `process.on('SIGUSR2', () => { Promise.reject(new Error('stray rejection 23')); });`;
  const running = await startDaemon({
    env: { NODE_OPTIONS: `--import=data:text/javascript,${encodeURIComponent(preload)}` },
  });
  try {
    running.child.kill('SIGUSR2');
    for (let i = 0; i < 200 && !running.output().includes('stray rejection 23'); i++)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(running.output()).toContain('unhandled promise rejection; the daemon keeps running');
    expect(running.output()).toContain('stray rejection 23');
    expect((await fetch(`${running.url}/api/v1/health`)).status).toBe(200);
    expect(running.child.exitCode).toBeNull();
  } finally {
    await running.stop();
    await removeDataDir(running);
  }
});
