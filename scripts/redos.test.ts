/**
 * @module ReDoS check: every regular expression in every package's `src/` must match in linear time.
 *
 * The sources are parsed with the TypeScript compiler (not scanned with a regex), so regex literals
 * and `RegExp(...)` / `new RegExp(...)` calls are found wherever they sit, in files added later too.
 * Each pattern goes through `recheck`; a pattern built at run time cannot be proven safe and fails.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { check } from 'recheck';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const SOURCE_FILE = /\.(?:[cm]?[jt]s|[jt]sx)$/;

interface FoundRegex {
  where: string;
  source: string | null;
  flags: string;
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules') out.push(...sourceFiles(path));
    } else if (SOURCE_FILE.test(entry.name)) out.push(path);
  }
  return out;
}

function packageSourceDirs(): string[] {
  const packages = join(root, 'packages');
  return readdirSync(packages, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => join(packages, d.name, 'src'))
    .filter((dir) => {
      try {
        return readdirSync(dir) !== undefined;
      } catch {
        return false;
      }
    });
}

/** A string the compiler can read without running code, or null. */
function constantText(node: ts.Expression | undefined): string | null {
  if (!node) return null;
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  return null;
}

function isRegExpConstructor(node: ts.Expression): boolean {
  if (ts.isIdentifier(node)) return node.text === 'RegExp';
  return ts.isPropertyAccessExpression(node) && node.name.text === 'RegExp';
}

function regexesIn(file: string): FoundRegex[] {
  const text = readFileSync(file, 'utf8');
  const kind = file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const sourceFile = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const found: FoundRegex[] = [];
  const where = (node: ts.Node) => {
    const { line } = sourceFile.getLineAndCharacterOfPosition(node.getStart(sourceFile));
    return `${relative(root, file)}:${line + 1}`;
  };
  const visit = (node: ts.Node) => {
    if (ts.isRegularExpressionLiteral(node)) {
      const literal = node.text;
      const end = literal.lastIndexOf('/');
      found.push({ where: where(node), source: literal.slice(1, end), flags: literal.slice(end + 1) });
    } else if (
      (ts.isNewExpression(node) || ts.isCallExpression(node)) &&
      isRegExpConstructor(node.expression)
    ) {
      const [pattern, flags] = node.arguments ?? [];
      found.push({ where: where(node), source: constantText(pattern), flags: constantText(flags) ?? '' });
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return found;
}

const regexes = packageSourceDirs().flatMap((dir) => sourceFiles(dir).flatMap(regexesIn));

describe('no regular expression in packages/*/src can backtrack', () => {
  test('the scan finds the regexes (a parser failure must not pass silently)', () => {
    expect(regexes.length).toBeGreaterThan(20);
  });

  test.each(regexes.map((r) => [r.where, r] as const))('%s', async (_where, regex) => {
    expect(regex.source, 'pattern built at run time: it cannot be checked, use a literal').not.toBeNull();
    const diagnostics = await check(regex.source ?? '', regex.flags, { timeout: 20_000 });
    const verdict =
      diagnostics.status === 'vulnerable'
        ? `${diagnostics.status}: ${diagnostics.complexity.summary}, attack ${diagnostics.attack.pattern}`
        : diagnostics.status;
    expect(verdict, `/${regex.source}/${regex.flags}`).toBe('safe');
  });
});
