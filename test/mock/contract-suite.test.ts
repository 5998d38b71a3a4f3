import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultHumanEvaluationId, runContract, type Report } from '../../contract/index.js';
import { generators } from '../../generators/index.js';
import { evaluationStates } from '../../generators/vocabulary.js';
import { startMockServer, type MockServer } from '../../mock/index.js';

/** evalkit's own contract suite, run against the mock: a second, independent reading of the spec. */
const failures = (report: Report) => report.checks.filter((check) => check.outcome === 'failed').map((check) => `${check.id}: ${check.findings[0] ?? ''}`);

let plain: MockServer;
let strict: MockServer;

beforeAll(async () => {
  plain = await startMockServer({ port: 0 });
  const dir = mkdtempSync(join(tmpdir(), 'evalkit-contract-fixtures-'));
  mkdirSync(join(dir, 'human-evaluations'));
  const record = generators.HumanEvaluation(1, { id: defaultHumanEvaluationId });
  writeFileSync(join(dir, 'human-evaluations', `${defaultHumanEvaluationId}.json`), JSON.stringify(record));
  strict = await startMockServer({ port: 0, fixturesDir: dir, strictIds: true });
});

afterAll(async () => {
  await plain?.close();
  await strict?.close();
});

describe('the contract suite against the mock', () => {
  it('finds nothing wrong with --strict-ids, properties included, in every lifecycle state', async () => {
    for (const state of evaluationStates) {
      const report = await runContract({ baseUrl: strict.url, headers: { Prefer: `state=${state}` }, examples: 20 });
      expect(report.reachable).toBe(true);
      expect(failures(report), state).toEqual([]);
    }
  });

  it('without fixtures, warns only that an unknown id is served (the mock generates a record for any id)', async () => {
    const report = await runContract({ baseUrl: plain.url });
    expect(report.checks.filter((check) => check.outcome === 'failed').map((check) => [check.id, check.severity])).toEqual([
      ['fetch.unknown-id.rejected', 'warning'],
    ]);
  });

  it('flags the nullable flavour, which is outside the spec on purpose', async () => {
    const report = await runContract({ baseUrl: strict.url, headers: { Prefer: 'nullable=true, profile=minimal' } });
    expect(failures(report)).toEqual([expect.stringMatching(/^create\.body\.nulls: .*testset_id/)]);
  });
});
