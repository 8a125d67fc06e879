/**
 * @module Tests: the Dockerfile and compose.yaml parse and state what deployments rely on: the
 * server image runs the built bin as a non-root user on port 7443; compose publishes it on the
 * host's loopback only and adds the host-networked, privileged agent sharing the socket volume.
 * (No Docker daemon runs here; `docker build` is left to CI images.)
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, test } from 'vitest';
import { parse } from 'yaml';

const read = (name: string) => readFile(new URL(`../../${name}`, import.meta.url), 'utf8');

/** Dockerfile instructions of the last stage, continuation lines joined. */
async function finalStage(): Promise<[string, string][]> {
  const lines = (await read('Dockerfile'))
    .replace(/\\\n/g, ' ')
    .split('\n')
    .filter((line) => line.trim() && !line.trimStart().startsWith('#'));
  const last = lines.findLastIndex((line) => line.startsWith('FROM '));
  return lines.slice(last).map((line) => {
    const [instruction, ...rest] = line.trim().split(/\s+/);
    return [instruction!, rest.join(' ')];
  });
}

describe('Dockerfile', () => {
  test('the final image is the server only, as a non-root user, on 7443', async () => {
    const stage = await finalStage();
    const all = (name: string) =>
      stage.filter(([instruction]) => instruction === name).map(([, value]) => value);
    expect(all('USER')).toEqual(['firewarden']);
    expect(all('EXPOSE')).toEqual(['7443']);
    expect(JSON.parse(all('ENTRYPOINT')[0]!)).toEqual([
      'node',
      '/opt/firewarden/packages/firewarden/dist/cli.js',
    ]);
    expect(JSON.parse(all('CMD')[0]!)).toEqual(['serve']);
    const env = all('ENV').join(' ');
    expect(env).toContain('FIREWARDEN_SERVER_PORT=7443');
    expect(env).toContain('FIREWARDEN_AGENT_SOCKET=/run/firewarden/agent.sock');
    expect(all('RUN').join(' ')).toContain('useradd --system');
  });
});

describe('compose.yaml', () => {
  test('server unprivileged on host loopback; agent privileged on the host network; one socket volume', async () => {
    const compose = parse(await read('compose.yaml'));
    const { server, agent } = compose.services;
    expect(server.user).toBe('firewarden');
    expect(server.ports).toEqual(['127.0.0.1:7443:7443']);
    expect(server.privileged).toBeUndefined();
    expect(server.network_mode).toBeUndefined();
    expect(agent.network_mode).toBe('host');
    expect(agent.privileged).toBe(true);
    expect(agent.command[0]).toBe('agent');
    const socketVolume = (service: { volumes: string[] }) =>
      service.volumes.find((volume) => volume.endsWith(':/run/firewarden'))?.split(':')[0];
    expect(socketVolume(server)).toBe('agent-socket');
    expect(socketVolume(agent)).toBe('agent-socket');
    expect(Object.keys(compose.volumes)).toContain('agent-socket');
  });
});

describe('compose.yaml and the client address (issue 24, item 12)', () => {
  test("the server trusts exactly its network's gateway for X-Forwarded-For, a valid trusted_proxies value", async () => {
    const compose = parse(await read('compose.yaml'));
    const { server } = compose.services;
    const [network] = server.networks;
    const [{ subnet, gateway }] = compose.networks[network].ipam.config;
    expect(server.environment.FIREWARDEN_TRUSTED_PROXIES).toBe(gateway);
    expect(gateway.startsWith(subnet.split('.').slice(0, 3).join('.'))).toBe(true);
    const { configSchema } = await import('../../src/config/schema.js');
    const parsed = configSchema.safeParse({ server: { trusted_proxies: [gateway, subnet] } });
    expect(parsed.success).toBe(true);
    const refused = configSchema.safeParse({ server: { trusted_proxies: ['172.30.76.1%eth0'] } });
    expect(refused.success).toBe(false);
  });
});
