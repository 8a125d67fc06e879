/**
 * @module Tests: `POST /api/v1/firewall/rules/validate` through the built bin: the engine's
 * validation and analysis need no agent, so the route answers while the agent is down; every
 * invalid field comes back under `FW_VALIDATION_FAILED` with its path, bad bodies are 4xx; an
 * IPv6 zone id is a 422 naming the field (it was a 500, or silently another address). A list of
 * 10,000 distinct rules (the most a request may hold, 784 KB) is answered with its analysis while
 * the server keeps answering others: a `GET /api/v1/version` sent once the list is uploaded is
 * answered first (it waited 52 s behind a quadratic analysis on the event loop); one rule more is
 * a 422 naming the list.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { defaultMaxRules } from '../../src/engine/validate.js';
import { ApiClient } from '../support/api-client.js';
import { sendInFlight } from '../support/in-flight-request.js';
import { adminPassword, createInstallation, type Installation } from '../support/installation.js';
import { type RunningServer, startServer } from '../support/running-bin.js';
import { zoneIdAddresses } from './support/zone-ids.js';

/** 10,000 distinct rules, about 784 KB as JSON: the list of the report. */
const distinctRules = Array.from({ length: defaultMaxRules }, (_, i) => ({
  direction: 'in',
  action: i % 3 === 0 ? 'deny' : 'allow',
  protocol: i % 2 === 0 ? 'tcp' : 'udp',
  destination_port: String(1 + i),
}));

describe('POST /api/v1/firewall/rules/validate', () => {
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

  test('valid rules come back canonical with their conflicts', async () => {
    const answer = await admin.post('/api/v1/firewall/rules/validate', {
      rules: [
        { direction: 'in', action: 'allow', protocol: 'tcp', destination_port: '22', source: '10.1.2.3/8' },
        { direction: 'in', action: 'deny', protocol: 'tcp', destination_port: '22', source: '10.9.0.0/16' },
      ],
    });
    expect(answer.status).toBe(200);
    expect(answer.body.data.rules[0]).toMatchObject({
      source: '10.0.0.0/8',
      family: 'ipv4',
      destination_port: '22',
    });
    expect(answer.body.data.conflicts).toEqual([
      expect.objectContaining({ code: 'RULE_SHADOWED', severity: 'warning', rules: [0, 1] }),
    ]);
  });

  test('every invalid field is listed under FW_VALIDATION_FAILED; bad bodies are refused', async () => {
    const answer = await admin.post('/api/v1/firewall/rules/validate', {
      rules: [
        { direction: 'up', action: 'allow', protocol: 'tcp', destination_port: '99999' },
        { direction: 'in', action: 'allow', protocol: 'icmp', destination_port: '22', source: '1.2.3.4/33' },
      ],
    });
    expect(answer.status).toBe(422);
    expect(answer.body.error.code).toBe('FW_VALIDATION_FAILED');
    expect(answer.body.error.details.errors.map((e: { path: string }) => e.path)).toEqual([
      'rules.0.direction',
      'rules.0.destination_port',
      'rules.1.destination_port',
      'rules.1.source',
    ]);
    expect((await admin.post('/api/v1/firewall/rules/validate', { rules: 'all' })).status).toBe(400);
    expect((await admin.post('/api/v1/firewall/rules/validate', {})).status).toBe(400);
  });

  test.each(
    zoneIdAddresses.flatMap((address) => [
      ['source', address],
      ['destination', address],
    ]),
  )('%s %s is a 422 naming the field', async (field, address) => {
    const answer = await admin.post('/api/v1/firewall/rules/validate', {
      rules: [
        { direction: 'in', action: 'allow', protocol: 'tcp', destination_port: '22', [field]: address },
      ],
    });
    expect([answer.status, answer.body.error?.code]).toEqual([422, 'FW_VALIDATION_FAILED']);
    expect(answer.body.error.details.errors).toEqual([
      expect.objectContaining({ path: `rules.0.${field}`, code: 'invalid_address' }),
    ]);
  });

  test('is answered with its analysis, and a request sent meanwhile is answered first', async () => {
    const order: string[] = [];
    const validation = sendInFlight(admin, 'POST', '/api/v1/firewall/rules/validate', {
      rules: distinctRules,
    });
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
