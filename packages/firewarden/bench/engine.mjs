/**
 * @module `node bench/engine.mjs` (root, iptables, iproute2; under `flock /tmp/heavy.lock`): the
 * issue 10 engine figures, each against a baseline measured in the same run.
 * 1. validate 10,000 rules vs a JSON copy of the same rules (the floor of touching each rule), and
 *    analyse them (duplicates, shadowing, overlaps: the validate route's work) vs the same copy;
 * 2. render + apply 1,000 rules in one iptables-restore in a network namespace vs the same
 *    restore with no rule (process start-up and namespace entry);
 * 3. time from a safe apply's deadline to the restored rules (agent in process, commands through
 *    `ip netns exec`), vs one `ip netns exec <ns> iptables-save` (a command's floor).
 * The engine is bundled from src with rolldown, so no build is needed.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const here = path.dirname(fileURLToPath(import.meta.url));
const out = mkdtempSync(path.join(os.tmpdir(), 'fw-engine-bench-'));
await build({
  input: {
    validate: path.join(here, '../src/engine/validate.ts'),
    analyze: path.join(here, '../src/engine/analyze.ts'),
    render: path.join(here, '../src/engine/iptables-render.ts'),
    agent: path.join(here, '../src/agent/run-agent.ts'),
  },
  platform: 'node',
  output: { dir: out, format: 'esm' },
  logLevel: 'silent',
});
const { validateRules } = await import(path.join(out, 'validate.js'));
const { analyzeRules } = await import(path.join(out, 'analyze.js'));
const { renderOwnedTable } = await import(path.join(out, 'render.js'));
const { runAgent } = await import(path.join(out, 'agent.js'));

const ns = `fwbench-${randomBytes(4).toString('hex')}`;
const inNs = (argv, input) =>
  execFileSync('ip', ['netns', 'exec', ns, ...argv], { input, encoding: 'utf8', maxBuffer: 1 << 26 });
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const time = (fn) => {
  const start = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
};

function makeRules(count) {
  return Array.from({ length: count }, (_, i) => ({
    direction: 'in',
    action: i % 3 === 0 ? 'deny' : 'allow',
    protocol: i % 2 === 0 ? 'tcp' : 'udp',
    destination_port: String(1 + (i % 60_000)),
    source: `10.${(i >> 8) & 255}.${i & 255}.0/24`,
    comment: `rule ${i}`,
  }));
}

execFileSync('ip', ['netns', 'add', ns]);
try {
  // 1. validation
  const rules10k = makeRules(10_000);
  const validateMs = median(Array.from({ length: 5 }, () => time(() => validateRules(rules10k))));
  const copyMs = median(Array.from({ length: 5 }, () => time(() => JSON.parse(JSON.stringify(rules10k)))));
  console.log(
    `validate 10,000 rules: ${validateMs.toFixed(1)} ms (median of 5); JSON copy baseline ${copyMs.toFixed(1)} ms`,
  );
  const validated10k = validateRules(rules10k).rules;
  const analyzeMs = median(Array.from({ length: 5 }, () => time(() => analyzeRules(validated10k))));
  console.log(
    `analyze 10,000 rules: ${analyzeMs.toFixed(1)} ms (median of 5); JSON copy baseline ${copyMs.toFixed(1)} ms`,
  );

  // 2. render + apply 1,000 rules in one iptables-restore
  const rules1k = validateRules(makeRules(1_000)).rules;
  inNs(['iptables', '-P', 'INPUT', 'ACCEPT']);
  const applyMs = [];
  const emptyMs = [];
  for (let round = 0; round < 5; round += 1) {
    emptyMs.push(
      time(() =>
        inNs(['iptables-restore', '--noflush'], renderOwnedTable([], 'ipv4', inNs(['iptables-save']))),
      ),
    );
    applyMs.push(
      time(() =>
        inNs(['iptables-restore', '--noflush'], renderOwnedTable(rules1k, 'ipv4', inNs(['iptables-save']))),
      ),
    );
  }
  const count = inNs(['iptables-save'])
    .split('\n')
    .filter((l) => l.startsWith('-A FIREWARDEN-INPUT')).length;
  console.log(
    `save + render + apply 1,000 rules (ipv4, one iptables-restore): ${median(applyMs).toFixed(1)} ms (median of 5, ${count} rules in the chain); empty restore baseline ${median(emptyMs).toFixed(1)} ms`,
  );

  // 3. deadline -> restored rules, agent in process, from an empty chain
  inNs(['iptables-restore', '--noflush'], renderOwnedTable([], 'ipv4', inNs(['iptables-save'])));
  const state = mkdtempSync(path.join(os.tmpdir(), 'fw-engine-bench-agent-'));
  const lags = [];
  let settle;
  const running = await runAgent({
    socketPath: path.join(state, 'agent.sock'),
    stateDir: state,
    commandPrefix: ['ip', 'netns', 'exec', ns],
    events: { onRollback: (event) => settle?.(event) },
  });
  for (let round = 0; round < 5; round += 1) {
    const begun = await running.agent.beginSafeApply(makeRules(1_000), 1);
    const deadline = Date.parse(begun.deadline);
    const event = await new Promise((resolve) => {
      settle = resolve;
    });
    if (!event.ok) throw new Error(event.error);
    lags.push(Date.now() - deadline);
  }
  await running.close();
  rmSync(state, { recursive: true, force: true });
  const remaining = inNs(['iptables-save'])
    .split('\n')
    .filter((l) => l.startsWith('-A FIREWARDEN-INPUT')).length;
  const saveMs = median(Array.from({ length: 5 }, () => time(() => inNs(['iptables-save']))));
  console.log(
    `deadline -> restored rules (1,000 rules rolled back, v4+v6): ${median(lags)} ms (median of 5; ${remaining} of our rules left); one iptables-save baseline ${saveMs.toFixed(1)} ms`,
  );
} finally {
  execFileSync('ip', ['netns', 'delete', ns]);
  rmSync(out, { recursive: true, force: true });
}
