import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Test files by how long they took (ms, vitest's per-file time on the 2-core machine): each starts before any shorter
 * one of its project, so no long file starts last and ends the run alone. Measured, not guessed: refresh the figures
 * from `reports/vitest.json` when a file's cost changes a lot. Files not listed are short; they follow. These were
 * measured in `npm test` of a fresh clone on the 2-core machine (2026-11-28, 01:44, 3 workers, Chromium's headless
 * shell).
 */
const measuredMs: Record<string, number> = {
  'test/contract/concurrency.test.ts': 11_500,
  'test/browser/control-room.test.ts': 6_100,
  // Its duration (4.0 s) and the `npm pack` its import runs (1.5 s).
  'test/pack/pack.test.ts': 5_500,
  'test/contract/bank.test.ts': 4_300,
  'test/contract/compare-mock.test.ts': 3_500,
  'test/contract/properties.test.ts': 3_100,
  'test/contract/cli.test.ts': 3_100,
  'test/contract/flood.test.ts': 3_000,
  'test/cli/process.test.ts': 2_700,
  'test/msw/parity.test.ts': 2_700,
  'test/api/openapi.test.ts': 2_600,
  'test/mock/abuse.test.ts': 2_500,
  'test/generators/generators.test.ts': 2_100,
  'test/contract/run-verdict.test.ts': 1_800,
  'test/api/third-operation.test.ts': 1_800,
  'test/mock/properties.test.ts': 1_700,
  'test/mock/contract-suite.test.ts': 1_600,
  'test/diff/property.test.ts': 1_600,
  'test/contract/html-report.test.ts': 1_500,
  'test/browser/control-cross-site.test.ts': 1_300,
  'test/mock/compression-bombs.test.ts': 1_300,
  'test/contract/compare-mock-html.test.ts': 1_200,
  'test/api/generators-kubb.test.ts': 1_100,
  'test/msw/latency-node-test.test.ts': 1_100,
  'test/lint/layers.test.ts': 1_000,
  'test/contract/compare-mock-scenarios.test.ts': 1_000,
  'test/diff/hostile.test.ts': 1_000,
  'test/proxy/proxy.test.ts': 1_000,
  'test/contract/bounded-read.test.ts': 1_000,
  'test/mock/control-dashboard.test.ts': 1_000,
  'test/generators/realism.test.ts': 900,
  'test/mock/protocol-edges.test.ts': 900,
};

const root = new URL('../../', import.meta.url).pathname;
const cost = (file: TestSpecification) => measuredMs[file.moduleId.slice(root.length)] ?? 0;

/** Longest first, so no long file starts last and ends the run alone. */
export default class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return [...files].sort((a, b) => cost(b) - cost(a));
  }
}
