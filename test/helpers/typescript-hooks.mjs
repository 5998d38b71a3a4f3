// Node's module hooks for the test workers (vitest.config.ts): this project's TypeScript, loaded by Node itself.
// Vitest's module runner rewrote and served every module of every worker from the main process (a fifth of the
// suite's CPU went to that); Node imports them natively once esbuild has stripped the types. Plain JavaScript: Node
// loads this file before any hook exists.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';
import { transform, transformSync, version } from 'esbuild';

const options = { loader: 'ts', format: 'esm', target: 'esnext', sourcemap: 'inline' };

/**
 * Stripped modules by the hash of what made them (esbuild's version, its options, the file's path and text): the
 * three workers and the main process load the same modules, and a second run the same again; each is stripped once.
 */
const cache = fileURLToPath(new URL('../../node_modules/.cache/evalkit-typescript/', import.meta.url));
const made = createHash('sha256')
  .update(`${version}\0${JSON.stringify(options)}`)
  .digest('hex');

/** Where the file's JavaScript is kept, for this text of it. */
const cachedPath = (file, source) =>
  `${cache}${createHash('sha256').update(`${made}\0${file}\0${source}`).digest('hex')}.js`;

/** Puts the file's JavaScript in the cache, whole or not at all (by a rename). */
function keep(cached, code) {
  try {
    mkdirSync(cache, { recursive: true });
    const partial = `${cached}.${process.pid}-${threadId}`;
    writeFileSync(partial, code);
    renameSync(partial, cached);
  } catch {
    // A cache that cannot be written (node_modules read-only) only costs the next process the same stripping.
  }
}

/** The file's JavaScript: from the cache, or stripped by esbuild and put there. */
function stripped(file) {
  const source = readFileSync(file, 'utf8');
  const cached = cachedPath(file, source);
  try {
    return readFileSync(cached, 'utf8');
  } catch {
    // Not stripped yet.
  }
  // Import attributes (`with { type: 'json' }`) kept as written (target esnext): Node needs them for the schemas.
  const { code } = transformSync(source, { ...options, sourcefile: file });
  keep(cached, code);
  return code;
}

/**
 * Strips every TypeScript file of the project not in the cache yet, all at once (esbuild's service works on several
 * at a time): run before the workers start (the global setup), so that on a fresh clone each file is stripped once
 * for the run, not once in each process that loads it (measured: the 398 files take 0.7 s of CPU this way, and 1.2 s
 * stripped one by one in one process). The files are those tsconfig.json includes: what tsc checks, the tests load.
 * Then the cache keeps only what the files are now: each edit would otherwise leave its stripped text behind for good.
 */
export async function stripAll(root) {
  const { include } = JSON.parse(readFileSync(join(root, 'tsconfig.json'), 'utf8'));
  const files = include
    .flatMap((entry) =>
      entry.endsWith('.ts')
        ? [entry]
        : readdirSync(join(root, entry), { recursive: true }).map((name) => join(entry, name)),
    )
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts') && !file.includes('node_modules'))
    .map((file) => join(root, file));
  const current = new Set();
  await Promise.all(
    files.map(async (file) => {
      const source = readFileSync(file, 'utf8');
      const cached = cachedPath(file, source);
      current.add(cached);
      if (existsSync(cached)) return;
      // A file esbuild cannot read is left to the import that meets it, which says where.
      const code = await transform(source, { ...options, sourcefile: file }).then(
        (result) => result.code,
        () => undefined,
      );
      if (code !== undefined) keep(cached, code);
    }),
  );
  prune(current);
}

/**
 * Removes what the cache holds beyond `current`: stripped texts of files since edited or removed. Another process
 * that wanted one of them strips its file again, as on a miss.
 */
function prune(current) {
  let names = [];
  try {
    names = readdirSync(cache);
  } catch {
    return;
  }
  for (const name of names) {
    const path = `${cache}${name}`;
    if (!current.has(path)) rmSync(path, { force: true });
  }
}

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
    const code = stripped(fileURLToPath(path));
    return { format: 'module', source: code, shortCircuit: true };
  }
  return next(url, context);
}
