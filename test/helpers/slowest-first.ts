import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Test files by how long they took (ms, vitest's per-file time on the 2-core machine): each starts before any shorter
 * one of its project, so no long file starts last and ends the run alone. Measured, not guessed: refresh the figures
 * from `reports/vitest.json` when a file's cost changes a lot. Files not listed are short; they follow. These were
 * measured in a whole `npm test` with other work loading the machine (load average 5 to 11): quiet, each is shorter,
 * and the order holds.
 */
const measuredMs: Record<string, number> = {
  'test/pack/pack.test.ts': 50_500,
  'test/generators/generators.test.ts': 26_100,
  'test/contract/concurrency.test.ts': 21_400,
  'test/contract/bank.test.ts': 20_900,
  'test/api/generators-kubb.test.ts': 19_500,
  'test/diff/property.test.ts': 17_200,
  'test/api/third-operation.test.ts': 16_500,
  'test/bench/smoke.test.ts': 15_400,
  'test/browser/control-room.test.ts': 14_800,
  'test/contract/properties.test.ts': 12_400,
  'test/api/openapi.test.ts': 12_200,
  'test/mock/abuse.test.ts': 11_900,
  'test/contract/flood.test.ts': 10_000,
  'test/lint/layers.test.ts': 8_900,
  'test/cli/process.test.ts': 8_400,
  'test/msw/parity.test.ts': 8_300,
  'test/contract/html-report.test.ts': 7_400,
  'test/contract/cli.test.ts': 6_600,
  'test/browser/control-cross-site.test.ts': 5_800,
  'test/mock/control-dashboard.test.ts': 4_200,
  'test/msw/latency-node-test.test.ts': 3_400,
  'test/mock/compression-bombs.test.ts': 3_200,
  'test/mock/contract-suite.test.ts': 3_000,
  'test/contract/tls.test.ts': 2_900,
  'test/diff/hostile.test.ts': 2_400,
  'test/mock/cli.test.ts': 2_400,
  'test/mock/properties.test.ts': 2_300,
  'test/schemas/standalone-validators.test.ts': 2_200,
  'test/contract/run-verdict.test.ts': 2_000,
  'test/mock/prism-proxy.test.ts': 1_700,
  'test/proxy/cli.test.ts': 1_700,
  'test/diff/diff.test.ts': 1_600,
  'test/proxy/compressed.test.ts': 1_500,
  'test/proxy/credentials.test.ts': 1_500,
};

const root = new URL('../../', import.meta.url).pathname;
const cost = (file: TestSpecification) => measuredMs[file.moduleId.slice(root.length)] ?? 0;

/** 1 for a file of a project that runs each file in a fresh module graph, 0 for one whose files share a worker. */
const isolated = (file: TestSpecification) => (file.project.config.isolate ? 1 : 0);

/**
 * The files that share workers first, then the isolated ones: vitest keeps a shared worker (and the modules it has
 * imported) only while the next file waiting is one it can run, so a mix would start workers over and over.
 */
export default class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return [...files].sort((a, b) => isolated(a) - isolated(b) || cost(b) - cost(a));
  }
}
