import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
// The shared contract checker sits beside the checkout (on CI and developer machines alike).
const contractCheck = join(root, '..', 'shared', 'tools', 'contract-check');

test('every server bin keeps the operating contract (shared/tools/contract-check)', (context) => {
  if (!existsSync(contractCheck)) {
    if (process.env.CI) throw new Error(`${contractCheck} is missing on CI`);
    console.warn(`skipped: ${contractCheck} not found beside the checkout`);
    context.skip();
  }
  const result = spawnSync('bash', [contractCheck], { cwd: root, encoding: 'utf8', timeout: 110_000 });
  const output = `${result.stdout}${result.stderr}`;
  expect(output, output).toMatch(/^\d+ passed, 0 failed$/m);
  expect(result.status, output).toBe(0);
});
