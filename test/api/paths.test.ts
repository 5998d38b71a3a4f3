import createClient from 'openapi-fetch';
import { describe, expect, it } from 'vitest';
import type { paths } from '../../api/openapi.js';
import { build } from '../../generators/factories.js';
import { createMockCore, handleFetch } from '../../mock/index.js';
import { isDocumentedEvaluatorConfig, validate } from '../../schemas/validators/index.js';

describe('paths: openapi-fetch typed from evalkit, against the mock', () => {
  const core = createMockCore({});
  const client = createClient<paths>({ baseUrl: 'http://mock.test', fetch: (request) => handleFetch(core, request) });

  it('types GET /human-evaluations/{evaluation_id}: a required path parameter, a HumanEvaluation out', async () => {
    const { data, error } = await client.GET('/human-evaluations/{evaluation_id}', {
      params: { path: { evaluation_id: 'he-1' } },
    });
    expect(error).toBeUndefined();
    expect(data?.id).toBe('he-1');
    expect(validate('HumanEvaluation', data).valid).toBe(true);
    const names: string[] | undefined = data?.variant_names;
    expect(names?.length).toBe(data?.variant_ids.length);
    // @ts-expect-error: the path parameter is required
    await client.GET('/human-evaluations/{evaluation_id}', {});
    // @ts-expect-error: no such path
    await client.GET('/human-evaluation/{evaluation_id}', { params: { path: { evaluation_id: 'x' } } });
  });

  it('types POST /evaluations: a CreateEvaluationRequest in, Evaluations out, whose configs narrow', async () => {
    const body = build('CreateEvaluationRequest', { seed: 3 });
    const { data, response } = await client.POST('/evaluations', { body, headers: { prefer: 'state=finished' } });
    expect(response.status).toBe(200);
    expect(data).toHaveLength(body.variant_ids.length);
    let documented = 0;
    for (const evaluation of data ?? []) {
      expect(validate('Evaluation', evaluation).valid).toBe(true);
      for (const { evaluator_config: config } of evaluation.aggregated_results) {
        // The guard narrows: `config.evaluator_key` needs no cast.
        if (isDocumentedEvaluatorConfig(config)) documented += config.evaluator_key.length > 0 ? 1 : 0;
      }
    }
    expect(documented).toBeGreaterThan(0);
    // @ts-expect-error: GET is not an operation of /evaluations
    await client.GET('/evaluations');
    // @ts-expect-error: a request body without its required fields
    await client.POST('/evaluations', { body: { app_id: 'x' } });
    const unprocessable = await client.POST('/evaluations', {
      body: { ...body, rate_limit: { batch_size: 1 } as never },
    });
    expect(unprocessable.response.status).toBe(422);
    expect(validate('HTTPValidationError', unprocessable.error).valid).toBe(true);
  });
});
