import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

describe('package contract (DESIGN.md)', () => {
  it('the built entry exports every public name, with type declarations', async () => {
    const mod = await import(`${root}dist/index.js`);
    for (const name of [
      'Botlists',
      'VoteWebhookServer',
      'UniversalParser',
      'StatusChecker',
      'ConsoleReport',
      'VoteAnnouncer',
      'BotlistsError',
      'resolveList',
      'lists',
    ]) {
      expect(mod[name], name).toBeDefined();
    }
    expect(existsSync(`${root}dist/index.d.ts`)).toBe(true);
    expect(mod.DEFAULT_WEBHOOK_PATH).toBe('/botlists');
  });

  it('has zero runtime dependencies and imports only node: built-ins', () => {
    const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8'));
    expect(pkg.dependencies ?? {}).toEqual({});
    expect(pkg.version).toBe('2.0.0');
    expect(pkg.bin.botlists).toBe('./dist/cli.js');
    const files = readdirSync(`${root}src`, { recursive: true, encoding: 'utf8' }).filter((f) =>
      f.endsWith('.ts'),
    );
    expect(files.length).toBeGreaterThan(20);
    const sources = files.map((f) => readFileSync(`${root}src/${f}`, 'utf8'));
    const specifiers = sources.flatMap((text) => [...text.matchAll(/from '([^']+)'/g)].map((m) => m[1]!));
    expect(specifiers.filter((s) => !s.startsWith('.') && !s.startsWith('node:'))).toEqual([]);
  });

  it("declares the ledger stores' drivers as optional peers, loaded only by dynamic import", () => {
    const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8'));
    expect(Object.keys(pkg.peerDependencies).sort()).toEqual(['better-sqlite3', 'pg']);
    for (const name of Object.keys(pkg.peerDependencies))
      expect(pkg.peerDependenciesMeta[name], name).toEqual({ optional: true });
    const imports = (file: string) =>
      [...readFileSync(`${root}src/ledger/${file}`, 'utf8').matchAll(/import\('([^']+)'\)/g)].map(
        (m) => m[1],
      );
    expect(imports('sqlite-store.ts')).toEqual(['better-sqlite3']);
    expect(imports('postgres-store.ts')).toEqual(['pg']);
  });
});
