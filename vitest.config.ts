import { defineConfig } from 'vitest/config';
import SlowestFirst from './test/helpers/slowest-first.js';

/**
 * Files that start processes (the built CLI, Prism, Chromium, npm pack, linters): test/README.md says why each spawns.
 * They share modules like the in-process tier (a process they start is fresh; the test's own module graph need not be).
 */
const processTier = [
  'test/api/{openapi,generators-*}.test.ts',
  'test/bench/smoke.test.ts',
  'test/browser/**/*.test.ts',
  'test/cli/process.test.ts',
  'test/contract/{flood,html-report,prism,reproduce,tls}.test.ts',
  'test/mock/{abuse,cli,control-dashboard,prism-proxy}.test.ts',
  'test/pack/**/*.test.ts',
  'test/proxy/cli.test.ts',
  'test/readme/browser-snippet.test.ts',
];

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
        test: {
          name: 'in-process',
          include: ['test/**/*.test.ts'],
          exclude: [...processTier, ...patchesGlobals, ...installTier],
          isolate: false,
        },
      },
      {
        extends: true,
        // One Chromium for the run, started only when this tier runs.
        test: {
          name: 'processes',
          include: processTier,
          isolate: false,
          globalSetup: ['test/helpers/shared-chromium.ts'],
        },
      },
      { extends: true, test: { name: 'patches-globals', include: patchesGlobals } },
    ],
  },
});
