import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { builtinsIn, bundleForBrowser, codeFromStringsIn } from '../../bench/browser-bundle.js';

const source = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url));

describe('browser bundles (esbuild, platform browser, msw external)', () => {
  for (const entry of ['mock/msw/index.ts', 'generators/factories.ts']) {
    it(`${entry} bundles with no Node built-in and no eval or Function(), within 100 KB gzipped`, async () => {
      const { code, metafile } = await bundleForBrowser(source(entry), { external: ['msw'] });
      expect(builtinsIn(metafile, builtinModules)).toEqual([]);
      expect(codeFromStringsIn(code)).toEqual([]);
      expect(gzipSync(code).length).toBeLessThanOrEqual(100 * 1024);
    });
  }
});
