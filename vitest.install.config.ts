import { defineConfig } from 'vitest/config';

/**
 * `npm run test:install`, apart from `npm test`: the installs whose cost is the install itself. The README's install
 * block as written, where npm clones this checkout's HEAD, installs evalkit's dev dependencies in the clone and builds
 * it (minutes: the git install is the behaviour), and npm's install of the tarball: Node 20 with msw's floor, Node 22
 * with the latest msw, Node 24 (a Node from the registry and an install each). `.ci/run` runs it after `npm test`,
 * whose test/pack/pack.test.ts checks the unpacked tarball.
 */
export default defineConfig({
  test: {
    reporters: ['default', ['json', { outputFile: 'reports/vitest-install.json' }]],
    include: ['test/readme/install.test.ts', 'test/pack/matrix.test.ts'],
    // The installed package's browser snippet drives the run's one Chromium, as in `npm test`.
    globalSetup: ['test/helpers/temp-leaks.ts', 'test/helpers/shared-chromium.ts'],
    testTimeout: 900_000,
    hookTimeout: 180_000,
  },
});
