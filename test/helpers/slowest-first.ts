import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Test files by how long they took (ms, vitest's per-file time on the 2-core machine): each starts before any shorter
 * one of its project, so no long file starts last and ends the run alone. Measured, not guessed: refresh the figures
 * from `reports/vitest.json` when a file's cost changes a lot. Files not listed are short; they follow. These were
 * measured in `npm test` on the 2-core machine (2026-11-27 evening, 3 workers, Node loading the TypeScript).
 */
const measuredMs: Record<string, number> = {
  'test/contract/concurrency.test.ts': 14_500,
  'test/browser/control-room.test.ts': 10_100,
  'test/generators/generators.test.ts': 10_100,
  'test/contract/flood.test.ts': 8_900,
  'test/contract/compare-mock.test.ts': 8_700,
  // Its duration (4.9 s) and the `npm pack` its import runs (1.5 s).
  'test/pack/pack.test.ts': 6_400,
  // Its duration (1.9 s) and the import of Kubb's plugins before it (3.5 s).
  'test/api/generators-kubb.test.ts': 5_400,
  'test/contract/bank.test.ts': 5_300,
  'test/diff/property.test.ts': 5_200,
  'test/api/openapi.test.ts': 4_700,
  'test/browser/control-cross-site.test.ts': 4_300,
  'test/contract/properties.test.ts': 4_200,
  'test/mock/abuse.test.ts': 3_800,
  'test/cli/process.test.ts': 3_500,
  'test/contract/run-verdict.test.ts': 3_400,
  'test/msw/parity.test.ts': 3_200,
  'test/contract/cli.test.ts': 2_900,
  'test/contract/html-report.test.ts': 2_700,
  'test/diff/hostile.test.ts': 2_500,
  'test/contract/compare-mock-html.test.ts': 2_000,
  'test/generators/realism.test.ts': 1_900,
  'test/lint/layers.test.ts': 1_800,
  'test/mock/properties.test.ts': 1_700,
  'test/diff/diff.test.ts': 1_700,
  'test/mock/compression-bombs.test.ts': 1_700,
  'test/mock/control-dashboard.test.ts': 1_700,
  'test/api/third-operation.test.ts': 1_600,
  'test/mock/prism-proxy.test.ts': 1_400,
  'test/mock/cli.test.ts': 1_300,
  'test/contract/compare-mock-scenarios.test.ts': 1_200,
  'test/msw/latency-node-test.test.ts': 1_000,
  'test/proxy/compressed.test.ts': 1_000,
  'test/generators/web-client-dates.test.ts': 900,
  'test/mock/contract-suite.test.ts': 900,
};

const root = new URL('../../', import.meta.url).pathname;
const cost = (file: TestSpecification) => measuredMs[file.moduleId.slice(root.length)] ?? 0;

/** Longest first, so no long file starts last and ends the run alone. */
export default class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return [...files].sort((a, b) => cost(b) - cost(a));
  }
}
