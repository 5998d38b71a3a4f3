import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Test files by how long they took (ms, vitest's per-file time on the 2-core machine): each starts before any shorter
 * one of its project, so no long file starts last and ends the run alone. Measured, not guessed: refresh the figures
 * from `reports/vitest.json` when a file's cost changes a lot. Files not listed are short; they follow. These were
 * measured in `npm test` on the 2-core machine (2026-11-27, 3 workers).
 */
const measuredMs: Record<string, number> = {
  'test/contract/concurrency.test.ts': 20_900,
  'test/pack/pack.test.ts': 17_600,
  'test/browser/control-room.test.ts': 13_300,
  'test/contract/bank.test.ts': 12_800,
  'test/contract/compare-mock.test.ts': 9_200,
  // Its duration (4.5 s) and the import of Kubb's plugins before it (5 s).
  'test/api/generators-kubb.test.ts': 9_500,
  'test/mock/compression-bombs.test.ts': 7_900,
  'test/api/openapi.test.ts': 7_700,
  'test/mock/abuse.test.ts': 7_200,
  'test/generators/generators.test.ts': 6_300,
  'test/contract/flood.test.ts': 6_100,
  'test/contract/html-report.test.ts': 5_200,
  'test/browser/control-cross-site.test.ts': 4_600,
  'test/cli/process.test.ts': 4_500,
  'test/diff/hostile.test.ts': 4_000,
  'test/msw/parity.test.ts': 3_800,
  'test/contract/properties.test.ts': 3_500,
  'test/contract/cli.test.ts': 3_400,
  'test/mock/contract-suite.test.ts': 3_400,
  'test/diff/property.test.ts': 3_000,
  'test/contract/run-verdict.test.ts': 2_800,
  'test/mock/control-dashboard.test.ts': 2_700,
  'test/schemas/standalone-validators.test.ts': 2_600,
  'test/api/third-operation.test.ts': 2_000,
  'test/mock/properties.test.ts': 2_000,
  'test/contract/compare-mock-html.test.ts': 1_800,
  'test/generators/realism.test.ts': 1_700,
  'test/lint/layers.test.ts': 1_700,
  'test/diff/diff.test.ts': 1_600,
  'test/msw/latency-node-test.test.ts': 1_400,
  'test/contract/coverage.test.ts': 1_300,
  'test/contract/fix-hints.test.ts': 1_100,
};

const root = new URL('../../', import.meta.url).pathname;
const cost = (file: TestSpecification) => measuredMs[file.moduleId.slice(root.length)] ?? 0;

/** Longest first, so no long file starts last and ends the run alone. */
export default class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return [...files].sort((a, b) => cost(b) - cost(a));
  }
}
