import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitCode, runContract, type Report } from '../../contract/index.js';
import { generators } from '../../generators/index.js';
import { formatIssue, validate } from '../../schemas/validators/index.js';
import { startPrism, writeOpenApiFile, type PrismProcess } from '../helpers/prism.js';
import { removeTempDirs } from '../helpers/temp-dirs.js';

/**
 * One `prism mock` of the OpenAPI document (Prism takes seconds to start) for both what it shows: the document is
 * whole enough for an independent implementation to serve valid answers from it, and the contract suite passes that
 * independent server.
 */
let prism: PrismProcess;
let report: Report;

beforeAll(async () => {
  prism = await startPrism(['mock', await writeOpenApiFile('yaml')]);
  report = await runContract({ baseUrl: prism.url, timeoutMs: 5000 });
}, 120_000);

afterAll(async () => {
  await prism?.stop();
  removeTempDirs();
});

describe('prism mock serves the OpenAPI document', () => {
  const expectValid = (name: 'HumanEvaluation' | 'Evaluation', instance: unknown) => {
    const { valid, issues } = validate(name, instance);
    if (!valid) expect.fail(issues.map(formatIssue).join('; '));
  };

  it('answers GET /human-evaluations/{id} with a valid HumanEvaluation', async () => {
    const response = await fetch(`${prism.url}/human-evaluations/6637c0a25368ef07b03a64cd`);
    expect(response.status).toBe(200);
    expectValid('HumanEvaluation', await response.json());
  });

  it('answers POST /evaluations with an array of valid Evaluations, statically and dynamically', async () => {
    for (const prefer of ['', 'dynamic=true']) {
      const response = await fetch(`${prism.url}/evaluations`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(prefer ? { prefer } : {}) },
        body: JSON.stringify(generators.CreateEvaluationRequest(1)),
      });
      expect(response.status).toBe(200);
      const body = (await response.json()) as unknown[];
      expect(Array.isArray(body)).toBe(true);
      for (const evaluation of body) expectValid('Evaluation', evaluation);
    }
  });

  it('serves the error bodies the document declares', async () => {
    const unprocessable = await fetch(`${prism.url}/human-evaluations/abc`, { headers: { prefer: 'code=422' } });
    expect(unprocessable.status).toBe(422);
    expect(validate('HTTPValidationError', await unprocessable.json())).toEqual({ valid: true, issues: [] });
    const other = await fetch(`${prism.url}/human-evaluations/abc`, { headers: { prefer: 'code=404' } });
    expect(other.status).toBe(404);
    expect(validate('HTTPError', await other.json())).toEqual({ valid: true, issues: [] });
  });

  it('rejects a create request that breaks the schema, as the document says', async () => {
    const response = await fetch(`${prism.url}/evaluations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ app_id: 1 }),
    });
    expect(response.status).toBe(422);
  });
});

describe('runContract against prism mock serving the OpenAPI document', () => {
  it('exits 0: no error-level check fails', () => {
    const errors = report.checks.filter((check) => check.outcome === 'failed' && check.severity === 'error');
    expect(errors, JSON.stringify(errors, null, 2)).toEqual([]);
    expect(exitCode(report)).toBe(0);
  });

  it('validates the bodies Prism serves', () => {
    const outcome = (id: string) => report.checks.find((check) => check.id === id)?.outcome;
    expect(outcome('fetch.body.schema')).toBe('passed');
    expect(outcome('create.body.schema')).toBe('passed');
  });
});
