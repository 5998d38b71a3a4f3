import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Test files by how long they took (ms, vitest's per-file time on the 2-core machine, in-process CLI): each starts
 * before any shorter one, so no long file starts last and ends the run alone. Measured, not guessed: refresh the
 * figures from `reports/vitest.json` when a file's cost changes a lot. Files not listed are short; they follow.
 */
const measuredMs: Record<string, number> = {
  // These two measured on a loaded machine (load average 15 to 20, where openapi.test.ts took 69.7 s): the order holds.
  'test/readme/install.test.ts': 309_700,
  'test/pack/pack.test.ts': 126_700,
  'test/contract/concurrency.test.ts': 12_300,
  'test/api/openapi.test.ts': 7_300,
  'test/mock/cli.test.ts': 5_000,
  'test/generators/generators.test.ts': 4_600,
  'test/contract/flood.test.ts': 3_400,
  'test/msw/parity.test.ts': 3_000,
  'test/mock/control-dashboard.test.ts': 2_900,
  'test/browser/worker.test.ts': 2_900,
  'test/contract/html-report.test.ts': 2_700,
  'test/contract/prism.test.ts': 2_600,
  'test/mock/abuse.test.ts': 2_400,
  'test/contract/properties.test.ts': 2_200,
  'test/lint/layers.test.ts': 2_200,
  'test/readme/browser-snippet.test.ts': 2_200,
  'test/contract/bank.test.ts': 2_000,
  'test/mock/prism-proxy.test.ts': 1_600,
  'test/proxy/proxy.test.ts': 1_400,
  'test/proxy/cli.test.ts': 1_400,
  'test/mock/control-cli.test.ts': 1_300,
  'test/contract/cli.test.ts': 1_300,
  'test/cli/fixtures.test.ts': 1_200,
  'test/mock/contract-suite.test.ts': 1_100,
};

const root = new URL('../../', import.meta.url).pathname;
const cost = (file: TestSpecification) => measuredMs[file.moduleId.slice(root.length)] ?? 0;

export default class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return [...files].sort((a, b) => cost(b) - cost(a));
  }
}
