import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { builtinModules } from 'node:module';
import { describe, expect, it } from 'vitest';
import { builtinsIn, bundleForBrowser } from '../../bench/browser-bundle.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const npm = (args: string[], cwd: string) =>
  execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

interface PackResult {
  filename: string;
  files: { path: string }[];
}

/** `file -> import` for each relative import of a shipped module that the tarball does not hold. */
function unshippedImports(shipped: string[]): string[] {
  const held = new Set(shipped);
  return shipped
    .filter((path) => path.endsWith('.js'))
    .flatMap((path) =>
      [...readFileSync(join(root, path), 'utf8').matchAll(/(?:from|import\()\s*'(\.\.?\/[^']+)'/g)]
        .map((match) => posix.join(posix.dirname(path), match[1] as string))
        .filter((target) => !held.has(target))
        .map((target) => `${path} -> ${target}`),
    );
}

/**
 * The must-show of evalkit/msw. Packs the built package (scripts skipped, so the pack does not rebuild dist/ under
 * the other tests), checks the tarball (a LICENSE, no dev-only code, every relative import shipped), installs the
 * tarball and msw into an empty project (from npm's cache when it can), and runs consumer.mjs there, which compares
 * msw/node with evalkit/msw handlers against `evalkit mock`. About 30 s here.
 */
describe('npm pack, installed into an empty project with msw', () => {
  it('answers GET and POST via msw/node like evalkit mock, bundles for the browser with no Node built-in', async () => {
    if (!existsSync(join(root, 'dist/mock/msw/index.js')))
      throw new Error('dist/ has no evalkit/msw: run `npm run build` first');
    const project = mkdtempSync(join(tmpdir(), 'evalkit-pack-'));
    const [packed] = JSON.parse(
      npm(['pack', '--ignore-scripts', '--json', '--loglevel=error', '--pack-destination', project], root),
    ) as PackResult[];
    const { filename: tarball, files } = packed as PackResult;
    const shipped = files.map((file) => file.path);
    expect(shipped).toContain('LICENSE');
    expect(shipped.filter((path) => /^dist\/(bench|scripts|test)\//.test(path))).toEqual([]);
    expect(unshippedImports(shipped)).toEqual([]);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'empty-app', private: true, type: 'module' }));
    npm(
      ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', `./${tarball}`, 'msw@^3'],
      project,
    );
    copyFileSync(join(root, 'test/pack/consumer.mjs'), join(project, 'consumer.mjs'));
    const output = execFileSync(process.execPath, ['consumer.mjs'], { cwd: project, encoding: 'utf8' });
    process.stdout.write(output);
    const fetched = 'GET /human-evaluations/6637c0a25368ef07b03a64cd';
    expect(output).toMatch(
      new RegExp(`^${fetched}: msw 200, evalkit mock 200, \\d+ bytes, valid, byte-identical$`, 'm'),
    );
    expect(output).toMatch(/^POST \/evaluations: msw 200, evalkit mock 200, \d+ bytes, valid, byte-identical$/m);
    expect(output).toMatch(/^pack check: passed$/m);

    // The installed package, as an app's bundler meets it: esbuild, platform browser, msw included.
    writeFileSync(
      join(project, 'app.js'),
      "export { handlers } from 'evalkit/msw';\nexport { build } from 'evalkit/factories';\n",
    );
    const { code, metafile } = await bundleForBrowser(join(project, 'app.js'));
    expect(builtinsIn(metafile, builtinModules)).toEqual([]);
    expect(code.length).toBeGreaterThan(0);
  }, 180_000);
});
