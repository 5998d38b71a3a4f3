import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { builtinsIn, bundleForBrowser } from '../../bench/browser-bundle.js';

const source = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url));

/** Code built from a string at run time, which a Content-Security-Policy without 'unsafe-eval' refuses. */
const codeFromStrings = /\bFunction\(|\beval\(/g;

describe('browser bundles (esbuild, platform browser, msw external)', () => {
  for (const entry of ['mock/msw/index.ts', 'generators/factories.ts']) {
    it(`${entry} bundles with no Node built-in and no eval or Function(), within 100 KB gzipped`, async () => {
      const { code, metafile } = await bundleForBrowser(source(entry), { external: ['msw'] });
      expect(builtinsIn(metafile, builtinModules)).toEqual([]);
      expect(new TextDecoder().decode(code).match(codeFromStrings)).toBeNull();
      expect(gzipSync(code).length).toBeLessThanOrEqual(100 * 1024);
    });
  }
});
