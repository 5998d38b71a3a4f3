import { register } from 'node:module';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import SlowestFirst from './test/helpers/slowest-first.js';

/**
 * Node loads the project's TypeScript itself, types stripped by esbuild (test/helpers/typescript-hooks.mjs), in the
 * workers and in this process (the global setups). Vitest's module runner, which rewrote every module and served it
 * to each worker from this process, cost a sixth of the suite's CPU (measured: 104 s of CPU for the run against 118,
 * 57 s of wall against 64).
 */
const hooks = new URL('./test/helpers/typescript-hooks.mjs', import.meta.url);
register(hooks);
const registerHooks = fileURLToPath(new URL('./test/helpers/typescript-hooks-register.mjs', import.meta.url));

/**
 * Run apart: the install from git and the newer Node lines' installs (`npm run test:install`), and every bench in quick
 * mode (`npm run test:bench`). `.ci/run` runs both after `npm test`.
 */
const otherTiers = ['test/readme/install.test.ts', 'test/pack/matrix.test.ts', 'test/bench/smoke.test.ts'];

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
    // servers, child processes, timers), so a third keeps both cores busy; a fourth only competes (measured on the
    // 2-core machine: 3 workers 70-74 s and 113-120 s of CPU, 4 workers 78-80 s and 132-135 s).
    maxWorkers: 3,
    // V8's background threads (concurrent GC and compilers) off in the workers: on 2 cores they only compete with the
    // other workers and the processes the tests start (measured: 6-8 s less CPU a run, 5 s less wall). A young
    // generation of 32 MB a half collects the suite's short-lived garbage less often (three A/B rounds: 63.4 s of wall
    // against 66.3 on average, 104 s of CPU against 108; one round of the three went the other way).
    execArgv: ['--single-threaded', '--max-semi-space-size=32', '--import', registerHooks],
    experimental: { viteModuleRunner: false, nodeLoader: false },
    sequence: { sequencer: SlowestFirst },
    include: ['test/**/*.test.ts'],
    exclude: otherTiers,
    // Files share modules (schemas, ajv, faker, msw load once per worker), those that start processes too: what they
    // start is fresh. The msw/node files close their servers after their tests, which puts fetch back as it was.
    isolate: false,
    // Folders left in the temporary dir fail the run (first: its teardown runs last); the TypeScript stripped once
    // for the run, before the workers start; one Chromium for the run, started when the first browser test asks.
    globalSetup: ['test/helpers/temp-leaks.ts', 'test/helpers/strip-once.mjs', 'test/helpers/shared-chromium.ts'],
  },
});
