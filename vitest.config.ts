import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The JSON report lets CI print a plain 'N passed, N failed' closing line.
    reporters: ['default', ['json', { outputFile: 'reports/vitest.json' }]],
    // Tests that start Prism or spawn the CLI wait on child processes; they set their own longer limits.
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
