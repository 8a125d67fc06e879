/**
 * @module Tests: a viewer's `POST /api/v1/firewall/rules/validate` of 10,000 distinct rules (the
 * most a request may hold) is answered with its analysis while the server keeps answering others:
 * a `GET /api/v1/version` sent once the whole list is uploaded is answered first (it waited 52 s
 * behind a quadratic analysis on the event loop). The list's bound is a 422 naming it. In
 * process: the stepped analysis lets the event loop run between its steps.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { RuleAnalysis } from '../../src/engine/analyze.js';
import { finishInTurns } from '../../src/engine/stepped-work.js';
import { defaultMaxRules } from '../../src/engine/validate.js';
import { ApiClient } from '../support/api-client.js';
import { adminPassword, createInstallation, type Installation } from '../support/installation.js';
import { type RunningServer, startServer } from '../support/running-bin.js';
import { rules } from './support/rules.js';

/** 10,000 distinct rules, about 784 KB as JSON: the list of the report. */
const distinctRules = Array.from({ length: defaultMaxRules }, (_, i) => ({
  direction: 'in',
  action: i % 3 === 0 ? 'deny' : 'allow',
  protocol: i % 2 === 0 ? 'tcp' : 'udp',
  destination_port: String(1 + i),
}));

/** Sends the POST through node:http; `uploaded` settles once the last byte left for the server. */
function postInFlight(client: ApiClient, path: string, body: unknown) {
  const target = new URL(path, client.baseUrl);
  const text = JSON.stringify(body);
  let uploaded!: () => void;
  const upload = new Promise<void>((resolve) => {
    uploaded = resolve;
  });
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    const outgoing = request(
      target,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(text),
          cookie: client.cookie!,
          'X-Firewarden-CSRF': client.csrf!,
        },
      },
      (response) => {
        let received = '';
        response.on('data', (chunk: Buffer) => {
          received += chunk.toString();
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: received }));
      },
    );
    outgoing.on('error', reject);
    outgoing.end(text, uploaded);
  });
  return { upload, answer };
}

describe('validating 10,000 rules', () => {
  let installation: Installation;
  let server: RunningServer;
  let admin: ApiClient;

  beforeAll(async () => {
    installation = (await createInstallation('sqlite'))!;
    await installation.createAdmin();
    server = await startServer(['--config', installation.configFile]);
    admin = new ApiClient(server.url);
    expect((await admin.login('admin', adminPassword)).status).toBe(200);
  });
  afterAll(async () => {
    await server?.stop();
    await installation?.remove();
  });

  test('is answered with its analysis, and a request sent meanwhile is answered first', async () => {
    const order: string[] = [];
    const validation = postInFlight(admin, '/api/v1/firewall/rules/validate', { rules: distinctRules });
    const validated = validation.answer.then((answer) => {
      order.push('validate');
      return answer;
    });
    await validation.upload;
    const version = await new ApiClient(server.url).get('/api/v1/version');
    order.push('version');
    expect(version.status).toBe(200);

    const answer = await validated;
    expect(answer.status).toBe(200);
    const data = JSON.parse(answer.body).data;
    expect(data.rules).toHaveLength(defaultMaxRules);
    expect(data.conflicts).toEqual([]);
    expect(data.overlaps_truncated).toBe(false);
    expect(order).toEqual(['version', 'validate']);
  }, 120_000);

  test('one rule more than the bound is a 422 naming the list', async () => {
    const answer = await admin.post('/api/v1/firewall/rules/validate', {
      rules: [...distinctRules, distinctRules[0]],
    });
    expect(answer.status).toBe(422);
    expect(answer.body.error.code).toBe('FW_VALIDATION_FAILED');
    expect(answer.body.error.details.errors).toEqual([
      { path: 'rules', code: 'too_many', message: `must hold at most ${defaultMaxRules} rules` },
    ]);
  });
});

test('the analysis run in turns lets the event loop serve others between its steps', async () => {
  const list = rules(distinctRules.slice(0, 2_000));
  const order: string[] = [];
  const analysed = finishInTurns(new RuleAnalysis(list), 100).then(() => order.push('analysis'));
  setImmediate(() => order.push('other work'));
  await analysed;
  expect(order).toEqual(['other work', 'analysis']);
});
