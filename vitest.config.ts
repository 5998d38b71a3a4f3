import { defineConfig } from 'vitest/config';
import SlowestFirst from './test/helpers/slowest-first.js';

/** Files that patch globals (msw/node intercepts `fetch`): each runs in a fresh module graph. */
const patchesGlobals = ['test/msw/**/*.test.ts', 'test/readme/{node,other-projects}-snippet.test.ts'];

/** The install from git runs apart, by `npm run test:install` (vitest.install.config.ts): minutes on its own. */
const installTier = ['test/readme/install.test.ts'];

export default defineConfig({
  test: {
    // The JSON report lets CI print a plain 'N passed, N failed' closing line.
    reporters: ['default', ['json', { outputFile: 'reports/vitest.json' }]],
    // Limits catch hangs, not slowness: a shared CI machine runs this suite 4-5 times slower than a quiet one, so
    // each limit is several times the slowest run seen under load. Tests that start Prism, npm or Chromium set their
    // own longer limits.
    testTimeout: 60_000,
    hookTimeout: 180_000,
    // Vitest's default is one worker per core less one: a single worker on 2 cores. Much of the suite waits (on
    // servers, child processes, timers), so two workers per core keep both cores busy.
    maxWorkers: 4,
    sequence: { sequencer: SlowestFirst },
    projects: [
      {
        extends: true,
        // Everything else shares modules (schemas, ajv, faker load once per worker), the files that start processes
        // too: what they start is fresh. One project, so a worker runs any of them without a new process and imports.
        test: {
          name: 'shared-modules',
          include: ['test/**/*.test.ts'],
          exclude: [...patchesGlobals, ...installTier],
          isolate: false,
          // One Chromium for the run, started when the first browser test asks.
          globalSetup: ['test/helpers/shared-chromium.ts'],
        },
      },
      { extends: true, test: { name: 'isolated', include: patchesGlobals } },
    ],
  },
});
