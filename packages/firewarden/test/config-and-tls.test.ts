/**
 * @module Tests: configuration through the running bin: defaults, unknown keys and bad values
 * reported with their key path, every FIREWARDEN_* override, --host/--port, the insecure-bind
 * refusal and its opt-in, HTTPS with a self-signed certificate made by openssl, and the log file
 * in both formats without secrets.
 */
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import { type SelfSignedCertificate, selfSignedCertificate } from '@suite/test-kit';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ApiClient } from './support/api-client.js';
import { httpsRequest } from './support/https-client.js';
import { adminPassword, createInstallation, type Installation } from './support/installation.js';
import { runCli, startServer } from './support/running-bin.js';

let installation: Installation;

beforeAll(async () => {
  installation = (await createInstallation('sqlite'))!;
  await installation.createAdmin();
});

afterAll(() => installation.remove());

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

async function signedIn(url: string) {
  const client = new ApiClient(url);
  expect((await client.login('admin', adminPassword)).status).toBe(200);
  return client;
}

describe('config errors', () => {
  const write = async (name: string, text: string) => {
    const file = path.join(installation.dir, name);
    await writeFile(file, text);
    return file;
  };

  test('an unknown key is an error naming its path, for `config validate` and for `serve`', async () => {
    const file = await write(
      'unknown.yaml',
      'server:\n  bind: 127.0.0.1\n  colour: red\nfirewal:\n  backend: ufw\n',
    );
    const validate = await runCli(['config', 'validate', '--config', file]);
    expect(validate.code).toBe(1);
    expect(validate.stderr).toContain('server.colour: unknown key');
    expect(validate.stderr).toContain('firewal: unknown key');
    const serve = await runCli(['serve', '--config', file]);
    expect(serve.code).toBe(2);
    expect(serve.stdout).toBe('');
    expect(serve.stderr).toContain('server.colour: unknown key');
  });

  test('bad values name the key and the rule; --json gives the same as JSON', async () => {
    const file = await write('values.yaml', 'server:\n  port: 70000\nfirewall:\n  backend: nftables\n');
    const validate = await runCli(['config', 'validate', '--config', file, '--json']);
    expect(validate.code).toBe(1);
    const body = JSON.parse(validate.stdout);
    expect(body.ok).toBe(false);
    expect(body.error.code).toBe('CONFIG_INVALID');
    expect(body.error.message).toContain('server.port:');
    expect(body.error.message).toContain('firewall.backend:');
    const postgres = await write('postgres.yaml', 'database:\n  driver: postgres\n');
    expect((await runCli(['config', 'validate', '--config', postgres])).stderr).toContain(
      'database.postgres_dsn: required when database.driver is postgres',
    );
  });

  test('not YAML, not a mapping, missing file', async () => {
    const broken = await write('broken.yaml', 'server: [1, 2\n');
    expect((await runCli(['config', 'validate', '--config', broken])).stderr).toContain('not valid YAML');
    const list = await write('list.yaml', '- 1\n- 2\n');
    expect((await runCli(['config', 'validate', '--config', list])).stderr).toContain('expected a mapping');
    const missing = await runCli([
      'config',
      'validate',
      '--config',
      path.join(installation.dir, 'none.yaml'),
    ]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('cannot read config file');
  });

  test('a valid file: exit 0, and --json shows every default', async () => {
    const file = await write('empty.yaml', '');
    const text = await runCli(['config', 'validate', '--config', file]);
    expect(text).toMatchObject({ code: 0, stdout: `${file}: valid\n` });
    const json = JSON.parse((await runCli(['config', 'validate', '--config', file, '--json'])).stdout);
    expect(json.config).toMatchObject({
      server: { bind: '127.0.0.1', port: 7443, allow_insecure_bind: false },
      tls: { enabled: false },
      database: { driver: 'sqlite', sqlite_path: '/var/lib/firewarden/firewarden.db' },
      firewall: { backend: 'auto', safe_apply_timeout_seconds: 60, allow_write_on_manager_conflict: false },
      logging: { level: 'info', format: 'json', file_path: '/var/log/firewarden/firewarden.log' },
      restore_points: { auto_enabled: true, retain_automatic: 50, retain_manual: 20 },
      security: { session_idle_timeout_minutes: 30, login_rate_limit_per_minute: 5 },
    });
  });

  test('a malformed override names the variable', async () => {
    const answer = await runCli(['serve', '--config', installation.configFile], {
      FIREWARDEN_SERVER_PORT: 'eighty',
    });
    expect(answer.code).toBe(2);
    expect(answer.stderr).toContain('FIREWARDEN_SERVER_PORT: must be an integer');
  });
});

describe('insecure bind', () => {
  test('a non-loopback bind without TLS is refused with a clear message', async () => {
    const flag = await runCli(['serve', '--config', installation.configFile, '--host', '0.0.0.0']);
    expect(flag.code).toBe(2);
    expect(flag.stdout).toBe('');
    expect(flag.stderr).toContain('refusing to listen on 0.0.0.0 without TLS');
    const env = await runCli(['serve', '--config', installation.configFile], {
      FIREWARDEN_SERVER_BIND: '0.0.0.0',
    });
    expect(env.code).toBe(2);
    expect(env.stderr).toContain('refusing to listen on 0.0.0.0 without TLS');
  });

  test('FIREWARDEN_ALLOW_INSECURE_BIND=true opts in, and a warning notification says so', async () => {
    const server = await startServer(
      ['--config', installation.configFile, '--host', '0.0.0.0', '--port', '0'],
      {
        FIREWARDEN_ALLOW_INSECURE_BIND: 'true',
      },
    );
    try {
      expect(server.url).toMatch(/^http:\/\/0\.0\.0\.0:\d+$/);
      const local = server.url.replace('0.0.0.0', '127.0.0.1');
      const client = await signedIn(local);
      const page = await client.get('/api/v1/notifications');
      expect(page.body.data.items.map((item: { code: string }) => item.code)).toContain('INSECURE_BIND');
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });
});

describe('environment overrides and flags', () => {
  test('FIREWARDEN_SERVER_PORT, _DB_SQLITE_PATH, _LOG_LEVEL, _SAFE_APPLY_TIMEOUT, _FIREWALL_BACKEND, _AGENT_SOCKET', async () => {
    const port = await freePort();
    const otherDb = path.join(installation.dir, 'other.db');
    const answer = await runCli(['user', 'create-admin', '--config', installation.configFile], {
      FIREWARDEN_DB_SQLITE_PATH: otherDb,
      FIREWARDEN_ADMIN_PASSWORD: adminPassword,
    });
    expect(answer.code).toBe(0);
    const server = await startServer(['--config', installation.configFile], {
      FIREWARDEN_SERVER_PORT: String(port),
      FIREWARDEN_DB_SQLITE_PATH: otherDb,
      FIREWARDEN_LOG_LEVEL: 'debug',
      FIREWARDEN_SAFE_APPLY_TIMEOUT: '90',
      FIREWARDEN_FIREWALL_BACKEND: 'iptables',
      FIREWARDEN_AGENT_SOCKET: path.join(installation.dir, 'elsewhere.sock'),
    });
    try {
      expect(server.url).toBe(`http://127.0.0.1:${port}`);
      expect(existsSync(otherDb)).toBe(true);
      const client = await signedIn(server.url);
      const settings = (await client.get('/api/v1/settings')).body.data;
      expect(settings.settings.logging.level).toBe('debug');
      expect(settings.settings.firewall.safe_apply_timeout_seconds).toBe(90);
      expect(settings.locked).toEqual(['firewall.safe_apply_timeout_seconds', 'logging.level']);
      const checks = (await client.get('/api/v1/system/diagnostics')).body.data.checks;
      const byName = Object.fromEntries(checks.map((check: { name: string }) => [check.name, check]));
      expect(byName.config.details.backend).toBe('iptables');
      expect(byName.agent.details.socket_path).toBe(path.join(installation.dir, 'elsewhere.sock'));
    } finally {
      await server.stop();
    }
  });

  test('--host and --port win over the file and the environment', async () => {
    const port = await freePort();
    const server = await startServer(
      ['--config', installation.configFile, '--host', '127.0.0.1', '--port', String(port)],
      {
        FIREWARDEN_SERVER_PORT: '1',
      },
    );
    expect(server.url).toBe(`http://127.0.0.1:${port}`);
    await server.stop();
  });
});

describe('HTTPS', () => {
  let pem: SelfSignedCertificate;
  let cert: Buffer;
  let certFile: string;
  let keyFile: string;

  beforeAll(() => {
    pem = selfSignedCertificate();
    ({ certFile, keyFile } = pem);
    cert = Buffer.from(pem.cert);
  });

  afterAll(() => pem.remove());

  test('tls.enabled serves HTTPS: https listening line, Secure cookie, HSTS', async () => {
    const server = await startServer(['--config', installation.configFile], {
      FIREWARDEN_TLS_ENABLED: 'true',
      FIREWARDEN_TLS_CERT: certFile,
      FIREWARDEN_TLS_KEY: keyFile,
    });
    try {
      expect(server.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      const version = await httpsRequest(`${server.url}/api/v1/version`, cert);
      expect(version.status).toBe(200);
      expect(JSON.parse(version.body).data.name).toBe('firewarden');
      expect(version.headers['strict-transport-security']).toBe('max-age=31536000');
      const login = await httpsRequest(`${server.url}/api/v1/auth/login`, cert, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'admin', password: adminPassword }),
      });
      expect(login.status).toBe(200);
      expect(String(login.headers['set-cookie'])).toMatch(/; HttpOnly; SameSite=Strict; Secure$/);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });

  test('with TLS a non-loopback bind needs no opt-in', async () => {
    const server = await startServer(['--config', installation.configFile, '--host', '0.0.0.0'], {
      FIREWARDEN_TLS_ENABLED: 'true',
      FIREWARDEN_TLS_CERT: certFile,
      FIREWARDEN_TLS_KEY: keyFile,
    });
    expect(server.url).toMatch(/^https:\/\/0\.0\.0\.0:\d+$/);
    const answer = await httpsRequest(
      `${server.url.replace('0.0.0.0', '127.0.0.1')}/api/v1/system/health`,
      cert,
    );
    expect(answer.status).toBe(200);
    await server.stop();
  });

  test('TLS enabled without a certificate, or with an unreadable one, is refused at start', async () => {
    const missing = await runCli(['serve', '--config', installation.configFile], {
      FIREWARDEN_TLS_ENABLED: 'true',
    });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('tls.cert_file: required when tls.enabled is true');
    const unreadable = await runCli(['serve', '--config', installation.configFile], {
      FIREWARDEN_TLS_ENABLED: 'true',
      FIREWARDEN_TLS_CERT: path.join(installation.dir, 'nope.pem'),
      FIREWARDEN_TLS_KEY: keyFile,
    });
    expect(unreadable.code).toBe(2);
    expect(unreadable.stderr).toContain('tls.cert_file: cannot read');
  });
});

describe('log file', () => {
  test('json: one JSON object per line at the configured level; no password, cookie or CSRF token', async () => {
    const logFile = path.join(installation.dir, 'json.log');
    const server = await startServer(['--config', installation.configFile], {
      FIREWARDEN_LOG_FILE: logFile,
      FIREWARDEN_LOG_LEVEL: 'debug',
    });
    const client = await signedIn(server.url);
    await client.get('/api/v1/settings');
    await server.stop();
    const lines = (await readFile(logFile, 'utf8')).trim().split('\n');
    const records = lines.map((line) => JSON.parse(line));
    expect(records.some((record) => record.msg === 'listening' && record.level === 30)).toBe(true);
    const text = lines.join('\n');
    expect(text).not.toContain(adminPassword);
    expect(text).not.toContain(client.csrf!);
    expect(text).not.toContain(client.cookie!.split('=')[1]!);
  });

  test('text format writes plain lines', async () => {
    const logFile = path.join(installation.dir, 'text.log');
    await installation.writeConfig({ logging: { format: 'text', file_path: logFile } });
    try {
      const server = await startServer(['--config', installation.configFile]);
      await server.stop();
      const text = await readFile(logFile, 'utf8');
      expect(text).toMatch(/INFO.*listening/);
      expect(() => JSON.parse(text.split('\n')[0]!)).toThrow();
    } finally {
      await installation.writeConfig();
    }
  });
});
