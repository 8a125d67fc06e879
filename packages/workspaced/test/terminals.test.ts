/**
 * @module Tests: terminals through the running bin: REST routes on real PTYs, the terminal socket
 * with a real `ws` client (typed input runs in the shell, resize seen by `tput cols`, replay
 * after reconnect, several clients, a client that stops reading keeps memory bounded, a program's
 * last bytes before the close), and the upgrade checks refused before any 101.
 */
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Client, type RunningDaemon, rawGet, userClient } from './support/daemon.js';
import { startProjectDaemon, stopProjectDaemon } from './support/project-daemon.js';
import { openSocket, rawUpgrade } from './support/websocket.js';

let daemon: RunningDaemon;
let owner: Client;
let projectDir: string;
let projectId: number;

beforeAll(async () => {
  ({ daemon, owner, projectDir, projectId } = await startProjectDaemon('terminals', {
    prepare: async (dir) => {
      await mkdir(path.join(dir, 'sub'));
      await symlink('/etc', path.join(dir, 'escape'));
    },
  }));
});

afterAll(() => stopProjectDaemon(daemon));

async function newTerminal(client: Client = owner, body: Record<string, unknown> = {}) {
  const created = await client.post('/terminals', { project_id: projectId, shell: '/bin/sh', ...body });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body as { id: number; cwd: string; cols: number; rows: number; pid: number };
}

describe('terminal routes', () => {
  test('POST /terminals starts a shell in the project folder; GET /terminals lists it', async () => {
    const terminal = await newTerminal(owner, {
      cwd: 'sub',
      env: { GREETING: 'hello' },
      cols: 100,
      rows: 30,
    });
    expect(terminal.cwd).toBe(path.join(projectDir, 'sub'));
    expect(terminal).toMatchObject({ cols: 100, rows: 30 });
    const socket = await openSocket(daemon, owner, `/terminals/${terminal.id}/ws`);
    socket.send({ input: 'echo "$GREETING from $(pwd)"\r' });
    await socket.until(
      () => socket.output.includes(`hello from ${path.join(projectDir, 'sub')}`),
      'env and cwd',
    );
    const listed = await owner.get('/terminals');
    expect(listed.status).toBe(200);
    expect(listed.body.terminals.map((t: { id: number }) => t.id)).toContain(terminal.id);
    await socket.close();
  });

  test('a size object is accepted like cols and rows', async () => {
    const terminal = await newTerminal(owner, { size: { cols: 90, rows: 20 } });
    expect(terminal).toMatchObject({ cols: 90, rows: 20 });
  });

  test('cwd must resolve inside the project; bad shells, env names and projects are refused', async () => {
    const cases: [Record<string, unknown>, number, string][] = [
      [{ project_id: projectId, cwd: '../' }, 400, 'INVALID_PATH'],
      [{ project_id: projectId, cwd: '/etc' }, 400, 'INVALID_PATH'],
      [{ project_id: projectId, cwd: 'escape' }, 403, 'PATH_OUTSIDE_ROOT'],
      [{ project_id: projectId, cwd: 'missing' }, 400, 'INVALID_CWD'],
      [{ project_id: projectId, shell: '/no/such/shell' }, 400, 'SHELL_NOT_FOUND'],
      [{ project_id: projectId, shell: 'relative/sh' }, 400, 'SHELL_NOT_FOUND'],
      [{ project_id: projectId, env: { 'BAD NAME': 'x' } }, 400, 'VALIDATION_FAILED'],
      [{ project_id: projectId, cols: 0 }, 400, 'VALIDATION_FAILED'],
      [{ project_id: 999_999 }, 404, 'NOT_FOUND'],
      [{ cwd: '' }, 400, 'VALIDATION_FAILED'],
    ];
    for (const [body, status, code] of cases) {
      const answer = await owner.post('/terminals', body);
      expect([JSON.stringify(body), answer.status, answer.body.error?.code]).toEqual([
        JSON.stringify(body),
        status,
        code,
      ]);
    }
  });

  test('REST input reaches the shell; resize changes what tput cols reports; terminate ends it', async () => {
    const terminal = await newTerminal();
    const socket = await openSocket(daemon, owner, `/terminals/${terminal.id}/ws`);
    expect((await owner.post(`/terminals/${terminal.id}/input`, { data: 'echo $((20+3))x\r' })).status).toBe(
      204,
    );
    await socket.until(() => socket.output.includes('23x'), 'REST input output');
    const resized = await owner.post(`/terminals/${terminal.id}/resize`, { cols: 123, rows: 40 });
    expect(resized.body).toMatchObject({ cols: 123, rows: 40 });
    socket.send({ input: 'echo cols=$(tput cols)\r' });
    await socket.until(() => socket.output.includes('cols=123'), 'tput after REST resize');
    socket.send({ resize: { cols: 77, rows: 20 } });
    socket.send({ input: 'echo cols=$(tput cols)\r' });
    await socket.until(() => socket.output.includes('cols=77'), 'tput after socket resize');
    const ended = await owner.post(`/terminals/${terminal.id}/terminate`);
    expect(ended.status).toBe(200);
    expect(ended.body.id).toBe(terminal.id);
    await socket.until(() => socket.ws.readyState === socket.ws.CLOSED || undefined, 'close after terminate');
    const listed = await owner.get('/terminals');
    expect(listed.body.terminals.map((t: { id: number }) => t.id)).not.toContain(terminal.id);
    expect((await owner.post(`/terminals/${terminal.id}/input`, { data: 'x' })).status).toBe(404);
  });

  test('input and resize bodies are validated', async () => {
    const terminal = await newTerminal();
    for (const [route, body] of [
      ['input', {}],
      ['input', { data: 'x'.repeat(64 * 1024 + 1) }],
      ['resize', { cols: 80 }],
      ['resize', { cols: 80, rows: 100_000 }],
    ] as const) {
      const answer = await owner.post(`/terminals/${terminal.id}/${route}`, body);
      expect(answer.status).toBe(400);
      expect(answer.body.error.code).toBe('VALIDATION_FAILED');
    }
    expect((await owner.post('/terminals/abc/input', { data: 'x' })).status).toBe(404);
  });
});

describe('terminal socket', () => {
  test('output is binary; malformed frames get an error frame and the socket stays usable', async () => {
    const terminal = await newTerminal();
    const socket = await openSocket(daemon, owner, `/terminals/${terminal.id}/ws`);
    socket.send({ nonsense: true });
    socket.ws.send('not json');
    await socket.until(
      () => socket.messages.filter((m) => m.error?.code === 'INVALID_MESSAGE').length === 2,
      'errors',
    );
    socket.send({ input: 'echo ok-$((40+2))\r' });
    await socket.until(() => socket.output.includes('ok-42'), 'output after bad frames');
    expect(socket.binary.length).toBeGreaterThan(0);
    await socket.close();
  });

  test('a reconnecting client gets the scrollback first; two clients see the same output', async () => {
    const terminal = await newTerminal();
    const first = await openSocket(daemon, owner, `/terminals/${terminal.id}/ws`);
    const second = await openSocket(daemon, owner, `/terminals/${terminal.id}/ws`);
    first.send({ input: 'echo before-$((1+1))-reconnect\r' });
    await first.until(() => first.output.includes('before-2-reconnect'), 'first client');
    await second.until(() => second.output.includes('before-2-reconnect'), 'second client');
    await first.close();
    const again = await openSocket(daemon, owner, `/terminals/${terminal.id}/ws`);
    await again.until(() => again.output.includes('before-2-reconnect'), 'replay');
    expect(again.binary[0]!.toString('utf8')).toContain('before-2-reconnect');
    again.send({ input: 'echo after-$((2+2))\r' });
    await again.until(() => again.output.includes('after-4'), 'live after replay');
    await second.until(() => second.output.includes('after-4'), 'second client live');
    await Promise.all([again.close(), second.close()]);
  });

  test('the scrollback keeps the last 1 MiB', async () => {
    const terminal = await newTerminal();
    const writer = await openSocket(daemon, owner, `/terminals/${terminal.id}/ws`);
    // 3 MiB of output, then a marker: the replay holds the end, capped at 1 MiB.
    writer.send({ input: 'head -c 3145728 /dev/zero | tr "\\0" a; echo; echo END-$((5*5))\r' });
    await writer.until(() => writer.output.includes('END-25'), 'big output');
    await writer.close();
    const reader = await openSocket(daemon, owner, `/terminals/${terminal.id}/ws`);
    await reader.until(() => reader.output.includes('END-25'), 'replay of the end');
    expect(reader.binary[0]!.length).toBe(1024 * 1024);
    await reader.close();
  });

  test('a program that prints 30 KB and exits at once: its last line reaches the socket before the close', async () => {
    // libuv reports the PTY's end without reading its last bytes (see pty-hangup-drain.ts).
    const report = path.join(projectDir, 'report.txt');
    await writeFile(report, `${'0123456789\n'.repeat(2_727)}last-line-42\n`);
    for (let attempt = 0; attempt < 3; attempt++) {
      const terminal = await newTerminal();
      const socket = await openSocket(daemon, owner, `/terminals/${terminal.id}/ws`);
      const closed = new Promise<[number, string]>((resolve) =>
        socket.ws.once('close', (code, reason) => resolve([code, reason.toString()])),
      );
      socket.send({ input: `exec cat ${report}\r` });
      expect(await closed).toEqual([1000, 'terminal exited']);
      expect(socket.output.endsWith('0123456789\r\nlast-line-42\r\n')).toBe(true);
    }
  });

  test('a client that stops reading pauses the PTY: unsent bytes stay bounded, nothing is lost', async () => {
    const terminal = await newTerminal();
    const slow = await openSocket(daemon, owner, `/terminals/${terminal.id}/ws`);
    slow.keepBinary = false;
    const total = 24 * 1024 * 1024;
    slow.send({ input: `head -c ${total} /dev/zero | tr "\\0" b; echo; echo SLOW-$((6*7))\r` });
    slow.ws.pause();
    const stats = async () =>
      (await owner.get('/terminals')).body.terminals.find((t: { id: number }) => t.id === terminal.id);
    let paused: { paused: boolean; output_bytes: number; max_unsent_bytes: number } | undefined;
    for (let i = 0; i < 600 && !paused?.paused; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      paused = await stats();
    }
    expect(paused?.paused).toBe(true);
    // High-water mark 512 KiB plus at most a PTY read or two in flight.
    expect(paused!.max_unsent_bytes).toBeLessThan(1024 * 1024);
    expect(paused!.output_bytes).toBeLessThan(total);
    // While paused the program is blocked: its output count does not move.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const later = await stats();
    expect(later.paused).toBe(true);
    expect(later.output_bytes).toBe(paused!.output_bytes);
    slow.ws.resume();
    await slow.until(() => slow.tail.includes('SLOW-42'), 'the end after resuming', 90_000);
    // Every byte arrived: the output, the echoed command line and the prompts.
    expect(slow.receivedBytes).toBeGreaterThan(total);
    await slow.close();
  }, 180_000);
});

describe('upgrade checks (before any 101)', () => {
  let terminalId: number;
  beforeAll(async () => {
    terminalId = (await newTerminal()).id;
  });

  const headers = () => ({ host: `127.0.0.1:${daemon.port}`, origin: daemon.url, cookie: owner.cookie! });

  test('the owner with cookie, allowed Host and Origin is upgraded (101)', async () => {
    expect((await rawUpgrade(daemon, `/terminals/${terminalId}/ws`, headers())).status).toBe(101);
  });

  test.each([
    ['a foreign Origin', { origin: 'http://evil.example' }, 403, 'ORIGIN_NOT_ALLOWED'],
    ['Origin null', { origin: 'null' }, 403, 'ORIGIN_NOT_ALLOWED'],
    ['a foreign Host', { host: 'evil.example' }, 403, 'HOST_NOT_ALLOWED'],
    ['no session', { cookie: '' }, 401, 'AUTH_REQUIRED'],
    ['a forged session', { cookie: 'workspaced_session=00' }, 401, 'AUTH_REQUIRED'],
  ])('%s is refused', async (_what, change, status, code) => {
    const answer = await rawUpgrade(daemon, `/terminals/${terminalId}/ws`, { ...headers(), ...change });
    expect(answer.status).toBe(status);
    expect(JSON.parse(answer.body).error.code).toBe(code);
  });

  test('no Origin at all is refused', async () => {
    const { origin: _origin, ...rest } = headers();
    const answer = await rawUpgrade(daemon, `/terminals/${terminalId}/ws`, rest);
    expect(answer.status).toBe(403);
  });

  test('unknown terminals and socket paths answer 404', async () => {
    for (const route of ['/terminals/999999/ws', '/terminals/abc/ws', '/terminals/1/ws/x', '/nope'])
      expect((await rawUpgrade(daemon, route, headers())).status).toBe(404);
  });

  test('a plain GET of a socket path is no HTTP route', async () => {
    expect(
      (await rawGet(daemon, `/terminals/${terminalId}/ws`, { host: `127.0.0.1:${daemon.port}` })).status,
    ).toBe(401);
    expect((await owner.get(`/terminals/${terminalId}/ws`)).status).toBe(404);
  });

  test('non-members cannot see a terminal; a viewer member watches but cannot type', async () => {
    const outsider = await userClient(daemon, owner, 'outsider', 'developer');
    expect(
      (
        await rawUpgrade(daemon, `/terminals/${terminalId}/ws`, {
          ...headers(),
          cookie: outsider.client.cookie!,
        })
      ).status,
    ).toBe(404);
    expect((await outsider.client.get('/terminals')).body.terminals).toEqual([]);
    const viewer = await userClient(daemon, owner, 'watcher', 'viewer');
    await owner.post(`/projects/${projectId}/members`, { user_id: viewer.id, role: 'viewer' });
    const watching = await openSocket(daemon, viewer.client, `/terminals/${terminalId}/ws`);
    watching.send({ input: 'echo typed-by-viewer\r' });
    await watching.until(
      () => watching.messages.find((m) => m.error?.code === 'PERMISSION_DENIED'),
      'denial',
    );
    expect(watching.output).not.toContain('typed-by-viewer');
    const rest = await viewer.client.post(`/terminals/${terminalId}/input`, { data: 'x' });
    expect(rest.status).toBe(403);
    await watching.close();
  });
});
