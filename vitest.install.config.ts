import { defineConfig } from 'vitest/config';

/**
 * `npm run test:install`, apart from `npm test`: the README's install block as written, where npm clones this
 * checkout's HEAD, installs evalkit's dev dependencies in the clone and builds it (minutes, the git install is the
 * behaviour). `.ci/run` runs it after `npm test`; the tarball installs stay in `npm test` (test/pack).
 */
export default defineConfig({
  test: {
    reporters: ['default', ['json', { outputFile: 'reports/vitest-install.json' }]],
    include: ['test/readme/install.test.ts'],
    testTimeout: 900_000,
    hookTimeout: 180_000,
  },
});
