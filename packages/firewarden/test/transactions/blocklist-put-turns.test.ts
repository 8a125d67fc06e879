/**
 * @module Tests: a PUT of a large blocklist does not hold the server's event loop. The entries are
 * parsed and merged a slice per turn, so `GET /api/v1/version` requests sent one after the other
 * from the body's last byte on (the rest was sent and read before: `ss` shows no unread byte) are
 * answered while it works, dozens of them. The list holds 300,000 IPv6 addresses (7 MB, the
 * costliest to parse), the last one invalid: the PUT ends with a 422 naming it right after the
 * parse, with no agent call after it (which would let any number of requests through).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { eventually } from '../backends/support/sandbox.js';
import { ApiClient } from '../support/api-client.js';
import { sendInFlight, serverReadAll } from '../support/in-flight-request.js';
import { adminPassword, createInstallation, type Installation } from '../support/installation.js';
import { type RunningServer, startServer } from '../support/running-bin.js';

/**
 * IPv6 addresses, the costliest to parse: 7 MB of body, a second or more of work at once (100,000
 * took 0.3 s once IPv6 merged on 32-bit words: too short a window to tell slices from one go).
 */
const size = 300_000;
const entries = Array.from({ length: size }, (_, i) =>
  i === size - 1 ? 'not an address' : `2001:db8:${(i >> 16).toString(16)}:${(i & 0xffff).toString(16)}::1`,
);

describe('PUT /api/v1/firewall/blocklists/{name} of a large list', () => {
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

  test('is merged while the server answers requests sent meanwhile', async () => {
    let putAnswered = false;
    const put = sendInFlight(
      admin,
      'PUT',
      '/api/v1/firewall/blocklists/feed',
      { entries, safe_apply: false },
      { holdLastByte: true },
    );
    const answered = put.answer.then((answer) => {
      putAnswered = true;
      return answer;
    });
    await put.upload;
    // The server has read the body sent so far: its last byte starts the work.
    await eventually(
      () => serverReadAll(Number(new URL(server.url).port), put.localPort()!),
      'the server read all but the last byte',
    );
    const reader = new ApiClient(server.url);
    await put.release();
    // Requests one after the other until the PUT is answered, each needing turns of the server's
    // loop. Measured (2026-11-29, load 3): 82-111 with the merge stepped, 2 with it in one go
    // (those pass while the body's tail is read and the PUT's audit is written); 29 in a
    // fresh-clone CI run, where the test's own client shares the two cores with other files.
    let meanwhile = 0;
    while (!putAnswered) {
      expect((await reader.get('/api/v1/version')).status).toBe(200);
      if (!putAnswered) meanwhile += 1;
    }

    const answer = await answered;
    expect(answer.status).toBe(422);
    expect(JSON.parse(answer.body).error).toMatchObject({
      code: 'FW_VALIDATION_FAILED',
      details: { invalid: 1, errors: [{ path: `entries.${size - 1}`, code: 'invalid_address' }] },
    });
    expect(meanwhile).toBeGreaterThanOrEqual(10);
  }, 120_000);
});
