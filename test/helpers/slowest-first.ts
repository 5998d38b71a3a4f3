import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Test files by how long they took (ms, vitest's per-file time on the 2-core machine, in-process CLI): each starts
 * before any shorter one of its project, so no long file starts last and ends the run alone. Measured, not guessed: refresh the
 * figures from `reports/vitest.json` when a file's cost changes a lot. Files not listed are short; they follow.
 */
const measuredMs: Record<string, number> = {
  'test/pack/pack.test.ts': 30_000,
  'test/bench/smoke.test.ts': 20_000,
  'test/contract/concurrency.test.ts': 17_000,
  'test/api/third-operation.test.ts': 15_000,
  'test/browser/control-room.test.ts': 15_000,
  'test/contract/bank.test.ts': 14_000,
  'test/api/generators-kubb.test.ts': 14_000,
  'test/contract/flood.test.ts': 12_000,
  'test/msw/parity.test.ts': 10_000,
  'test/diff/property.test.ts': 8_000,
  'test/contract/html-report.test.ts': 8_000,
  'test/generators/generators.test.ts': 8_000,
  'test/mock/abuse.test.ts': 7_500,
  'test/api/openapi.test.ts': 7_500,
  'test/cli/process.test.ts': 7_000,
  'test/mock/control-dashboard.test.ts': 6_500,
  'test/contract/properties.test.ts': 6_300,
  'test/browser/control-cross-site.test.ts': 6_000,
  'test/lint/layers.test.ts': 5_900,
  'test/mock/prism-proxy.test.ts': 5_600,
  'test/mock/properties.test.ts': 4_100,
  'test/mock/contract-suite.test.ts': 4_100,
  'test/contract/cli.test.ts': 4_100,
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
