/** Test support: the example extension, and copies of its manifest with an edit applied. */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const exampleDir = fileURLToPath(
  new URL('../../../examples/extensions/local-health', import.meta.url),
);

/** A copy of the example's `extension.yaml` with `replace` applied, in `<under>/ext/<name>`. */
export async function exampleVariant(
  under: string,
  name: string,
  replace: (text: string) => string,
): Promise<string> {
  const dir = path.join(under, 'ext', name);
  await mkdir(dir, { recursive: true });
  const text = await readFile(path.join(exampleDir, 'extension.yaml'), 'utf8');
  await writeFile(path.join(dir, 'extension.yaml'), replace(text));
  return dir;
}
