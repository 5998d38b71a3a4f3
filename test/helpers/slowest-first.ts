import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Test files by how long they took (ms, vitest's per-file time on the 2-core machine): each starts before any shorter
 * one of its project, so no long file starts last and ends the run alone. Measured, not guessed: refresh the figures
 * from `reports/vitest.json` when a file's cost changes a lot. Files not listed are short; they follow. These were
 * measured in `npm test` of a fresh clone (2026-11-27).
 */
const measuredMs: Record<string, number> = {
  'test/pack/pack.test.ts': 40_900,
  'test/api/third-operation.test.ts': 33_000,
  'test/api/generators-kubb.test.ts': 26_400,
  'test/contract/concurrency.test.ts': 16_100,
  'test/bench/smoke.test.ts': 14_900,
  'test/browser/control-room.test.ts': 12_900,
  'test/lint/layers.test.ts': 11_700,
  'test/contract/bank.test.ts': 10_900,
  'test/diff/property.test.ts': 9_800,
  'test/contract/properties.test.ts': 8_400,
  'test/contract/cli.test.ts': 8_100,
  'test/generators/generators.test.ts': 7_700,
  'test/contract/flood.test.ts': 7_400,
  'test/contract/html-report.test.ts': 6_100,
  'test/mock/abuse.test.ts': 5_900,
  'test/mock/compression-bombs.test.ts': 5_500,
  'test/api/openapi.test.ts': 5_400,
  'test/browser/control-cross-site.test.ts': 4_500,
  'test/cli/process.test.ts': 3_200,
  'test/contract/run-verdict.test.ts': 3_200,
  'test/mock/contract-suite.test.ts': 3_200,
  'test/diff/hostile.test.ts': 2_600,
  'test/contract/coverage.test.ts': 2_300,
  'test/mock/control-dashboard.test.ts': 2_300,
  'test/schemas/standalone-validators.test.ts': 2_100,
  'test/msw/parity.test.ts': 2_000,
  'test/mock/properties.test.ts': 1_700,
  'test/contract/fix-hints.test.ts': 1_600,
  'test/mock/prism-proxy.test.ts': 1_600,
};

const root = new URL('../../', import.meta.url).pathname;
const cost = (file: TestSpecification) => measuredMs[file.moduleId.slice(root.length)] ?? 0;

/** Longest first, so no long file starts last and ends the run alone. */
export default class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return [...files].sort((a, b) => cost(b) - cost(a));
  }
}
