import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultHumanEvaluationId, runContract, type Report } from '../../contract/index.js';
import { evaluationStates } from '../../generators/vocabulary.js';
import { startMockServer, type MockServer } from '../../mock/index.js';

/** evalkit's own contract suite, run against the mock: a second, independent reading of the spec. */
const failures = (report: Report) =>
  report.checks.filter((check) => check.outcome === 'failed').map((check) => `${check.id}: ${check.findings[0] ?? ''}`);

const mockFixtures = new URL('../../fixtures/mock', import.meta.url).pathname;

let plain: MockServer;
let strict: MockServer;

beforeAll(async () => {
  plain = await startMockServer({ port: 0 });
  // The committed fixtures hold the id the suite fetches by default: the mock then behaves as a real deployment.
  strict = await startMockServer({ port: 0, fixturesDir: mockFixtures, strictIds: true });
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
    expect(
      report.checks.filter((check) => check.outcome === 'failed').map((check) => [check.id, check.severity]),
    ).toEqual([['fetch.unknown-id.rejected', 'warning']]);
  });

  it('flags the nullable flavour, which is outside the spec on purpose', async () => {
    const report = await runContract({ baseUrl: strict.url, headers: { Prefer: 'nullable=true, profile=minimal' } });
    expect(failures(report)).toEqual([expect.stringMatching(/^create\.body\.nulls: .*testset_id/)]);
  });
});

describe('the committed mock fixtures', () => {
  it('include the id the contract suite fetches by default', async () => {
    const response = await fetch(`${strict.url}/human-evaluations/${defaultHumanEvaluationId}`);
    expect(response.status).toBe(200);
    expect(((await response.json()) as { id: string }).id).toBe(defaultHumanEvaluationId);
  });
});
