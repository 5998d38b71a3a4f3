// Node's module hooks for the test workers (vitest.config.ts): this project's TypeScript, loaded by Node itself.
// Vitest's module runner rewrote and served every module of every worker from the main process (a fifth of the
// suite's CPU went to that); Node imports them natively once esbuild has stripped the types. Plain JavaScript: Node
// loads this file before any hook exists.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { transformSync } from 'esbuild';

/** A relative `./x.js` import of this project's own code names `./x.ts`, as tsc's NodeNext resolution reads it. */
export async function resolve(specifier, context, next) {
  if (/^\.\.?\//.test(specifier) && specifier.endsWith('.js') && context.parentURL?.startsWith('file:')) {
    const source = new URL(`${specifier.slice(0, -'.js'.length)}.ts`, context.parentURL);
    if (!source.pathname.includes('/node_modules/') && existsSync(fileURLToPath(source)))
      return { url: source.href, format: 'module', shortCircuit: true };
  }
  return next(specifier, context);
}

/** A `.ts` file of this project, its types stripped; source maps inline, so a failure names the line of the source. */
export async function load(url, context, next) {
  const path = url.split('?')[0];
  if (path.startsWith('file:') && path.endsWith('.ts') && !path.includes('/node_modules/')) {
    const file = fileURLToPath(path);
    const { code } = transformSync(readFileSync(file, 'utf8'), {
      loader: 'ts',
      format: 'esm',
      // Import attributes (`with { type: 'json' }`) kept as written: Node needs them for the schemas.
      target: 'esnext',
      sourcemap: 'inline',
      sourcefile: file,
    });
    return { format: 'module', source: code, shortCircuit: true };
  }
  return next(url, context);
}
