import { defineConfig } from 'vitest/config';

/**
 * `npm run test:bench`, apart from `npm test`: every `npm run bench:*` in quick mode (test/bench/smoke.test.ts), each a
 * script of its own with the servers it measures. A bench is a developer's tool, not the package: its smoke test costs
 * a fifth of `npm test`'s CPU, so it runs where benches change and in CI (`.ci/run` runs it after `npm test`).
 */
export default defineConfig({
  test: {
    reporters: ['default', ['json', { outputFile: 'reports/vitest-bench.json' }]],
    include: ['test/bench/smoke.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    // A bench that leaves a folder in the temporary dir fails the run.
    globalSetup: ['test/helpers/temp-leaks.ts'],
  },
});
