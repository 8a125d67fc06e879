import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const smoke = fileURLToPath(new URL('./bun/smoke.mjs', import.meta.url));
const bun = fileURLToPath(new URL('../../../node_modules/.bin/bun', import.meta.url));

/** What the built package must do on every supported runtime. */
const EXPECTED = {
  resolved: 'top.gg',
  posted: ['top.gg'],
  postBody: '{"server_count":12}',
  webhook: [200, 401],
  votes: ['42'],
  announced: true,
  status: 'live',
  statusScheduled: true,
  parsed: 5,
};

async function runSmoke(runtime: string): Promise<Record<string, unknown>> {
  const { stdout } = await promisify(execFile)(runtime, [smoke], { timeout: 60_000 });
  return JSON.parse(stdout.trim().split('\n').at(-1)!);
}

async function bunWorks(): Promise<boolean> {
  if (!existsSync(bun)) return false;
  try {
    await promisify(execFile)(bun, ['--version'], { timeout: 10_000 });
    return true;
  } catch {
    return false;
  }
}

describe('built package smoke run', () => {
  it('works under Node', async () => {
    const result = await runSmoke(process.execPath);
    expect(result).toMatchObject({ runtime: 'node', ...EXPECTED });
    expect(result.lists).toBeGreaterThanOrEqual(23);
  });

  it('works under Bun', async (ctx) => {
    if (!(await bunWorks())) {
      // bun's binary arrives through its postinstall script; without it there is nothing to run.
      console.warn(
        'skipping the Bun run: node_modules/.bin/bun is missing or not executable (install scripts blocked?)',
      );
      if (process.env.CI) throw new Error('bun is required on CI (root allowScripts approves it)');
      ctx.skip();
    }
    const result = await runSmoke(bun);
    expect(result).toMatchObject({ runtime: 'bun', ...EXPECTED });
  });
});
