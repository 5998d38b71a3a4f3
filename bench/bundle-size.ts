import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { builtinsIn, bundleForBrowser, codeFromStringsIn } from './browser-bundle.js';
import { failIfMissed } from './quick.js';

/**
 * The browser bundle of evalkit/msw (msw itself excluded, as a peer the app bundles anyway): minified and gzipped
 * size, what dominates it (by package, minified bytes in the output), and checks that no Node built-in is left and
 * no code is built from a string (`eval`, `Function(`), which a Content-Security-Policy without 'unsafe-eval'
 * refuses. evalkit/factories, bundled alike, gets one line.
 * Usage: npm run bench:bundle   (target: at most 100 KB gzipped)
 */
const targetKb = 100;
const entry = fileURLToPath(new URL('../mock/msw/index.js', import.meta.url));
const factoriesEntry = fileURLToPath(new URL('../generators/factories.js', import.meta.url));

/**
 * `node_modules/@faker-js/faker/dist/x.js` -> `@faker-js/faker`; evalkit's own files by folder, its data files by
 * name.
 */
function owner(path: string): string {
  if (!path.includes('node_modules') && path.endsWith('.json'))
    return `evalkit ${path.slice(path.lastIndexOf('/') + 1)}`;
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  if (match) return match[1] as string;
  const own = /dist\/([^/]+)\/(?:([^/]+)\/)?/.exec(path);
  return own ? `evalkit ${own[1]}/${own[2] && !own[2].includes('.') ? `${own[2]}/` : ''}` : path;
}

const { code, metafile } = await bundleForBrowser(entry, { external: ['msw'] });
const builtins = builtinsIn(metafile, builtinModules);
const gzipped = gzipSync(code, { level: 9 }).length;
const evals = codeFromStringsIn(code);
const factories = await bundleForBrowser(factoriesEntry, { external: ['msw'] });
const byOwner = new Map<string, number>();
for (const output of Object.values(metafile.outputs)) {
  for (const [path, input] of Object.entries(output.inputs))
    byOwner.set(owner(path), (byOwner.get(owner(path)) ?? 0) + input.bytesInOutput);
}
const rows = [...byOwner.entries()].sort((a, b) => b[1] - a[1]);
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
process.stdout.write(`evalkit/msw browser bundle (esbuild, platform browser, minified, msw external)\n`);
const verdict = gzipped <= targetKb * 1024 ? 'met' : 'MISSED';
process.stdout.write(`minified: ${kb(code.length)}   gzipped: ${kb(gzipped)} (target <= ${targetKb} KB: ${verdict})\n`);
process.stdout.write(`Node built-ins left: ${builtins.length === 0 ? 'none' : builtins.join(', ')}\n`);
process.stdout.write(`code built from strings (eval, Function()): ${evals.length === 0 ? 'none' : evals.join(', ')}\n`);
process.stdout.write(
  `evalkit/factories alike: minified ${kb(factories.code.length)}   ` +
    `gzipped: ${kb(gzipSync(factories.code, { level: 9 }).length)}\n\nshare of the evalkit/msw minified bundle:\n`,
);
for (const [name, bytes] of rows)
  process.stdout.write(
    `  ${name.padEnd(40)} ${kb(bytes).padStart(10)}  ${((100 * bytes) / code.length).toFixed(1).padStart(5)}%\n`,
  );
failIfMissed(builtins.length > 0 || evals.length > 0 || gzipped > targetKb * 1024);
