import { build, type BuildOptions, type Metafile } from 'esbuild';

/**
 * A browser bundle of a module, as a frontend build would make it: esbuild, platform browser, ES modules, minified.
 * esbuild fails on any Node built-in left in the graph (platform browser does not resolve them), so a bundle that
 * builds has none; builtinsIn double-checks the metafile.
 */
export async function bundleForBrowser(
  entry: string,
  options: Pick<BuildOptions, 'external'> = {},
): Promise<{
  code: Uint8Array;
  metafile: Metafile;
}> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    minify: true,
    metafile: true,
    write: false,
    logLevel: 'silent',
    ...options,
  });
  const output = result.outputFiles?.[0];
  return { code: output?.contents ?? new Uint8Array(0), metafile: result.metafile };
}

/** Imports of Node built-ins (`node:fs`, `fs`, ...) found in a bundle's inputs. */
export function builtinsIn(metafile: Metafile, builtins: readonly string[]): string[] {
  const names = new Set(builtins);
  return Object.values(metafile.inputs)
    .flatMap((input) => input.imports.map((imported) => imported.path))
    .filter((path) => path.startsWith('node:') || names.has(path));
}

/**
 * Code a bundle builds from strings at run time (`eval(`, `Function(`, `new Function(`): a page whose
 * Content-Security-Policy has no 'unsafe-eval' refuses it. Each occurrence, as found.
 */
export function codeFromStringsIn(code: Uint8Array): string[] {
  return new TextDecoder().decode(code).match(/\bFunction\(|\beval\(/g) ?? [];
}
