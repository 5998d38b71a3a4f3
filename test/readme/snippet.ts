import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The first ```ts block of a README section, written as it is to reports/readme/NAME.ts (inside the package, so its
 * `evalkit/...` imports resolve to the built package by self-reference). Returns the file's path.
 */
export function readmeSnippet(heading: string, name: string): string {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const section = readme.indexOf(`\n## ${heading}\n`);
  if (section < 0) throw new Error(`README has no section '## ${heading}'`);
  const start = readme.indexOf('```ts\n', section);
  const code = readme.slice(start + '```ts\n'.length, readme.indexOf('\n```', start));
  const dir = join(root, 'reports/readme');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${name}.ts`);
  writeFileSync(file, `${code}\n`);
  return file;
}
