// The package's declarations again under dist/cjs/, marked CommonJS by a package.json of their own, for cjs/*.d.cts.
// TypeScript reads a declaration's module format from the nearest package.json: under `module: node16` a CommonJS
// file may not import the ES module declarations of dist/ (TS1479, with skipLibCheck off), but it may import these,
// which describe the same exports as require() gives them (Node 20.19+ requires evalkit's ES modules). A type taken
// from another package is read as an import would read it: some (faker) are ES modules only (TS1541 otherwise).
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
const target = join(dist, 'cjs');
// What ships (package.json "files" leaves these out of the package): the rest of dist/ is the package's.
const notShipped = new Set(['bench', 'test', 'scripts', 'cjs']);

rmSync(target, { recursive: true, force: true });
for (const entry of readdirSync(dist, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !entry.name.endsWith('.d.ts')) continue;
  const from = join(entry.parentPath, entry.name);
  const path = relative(dist, from);
  if (notShipped.has(path.split(/[\\/]/)[0])) continue;
  mkdirSync(dirname(join(target, path)), { recursive: true });
  const text = readFileSync(from, 'utf8').replace(
    /^(import type .* from '[^.'][^']*')(;)$/gm,
    "$1 with { 'resolution-mode': 'import' }$2",
  );
  writeFileSync(join(target, path), text);
}
writeFileSync(join(target, 'package.json'), '{ "type": "commonjs" }\n');
