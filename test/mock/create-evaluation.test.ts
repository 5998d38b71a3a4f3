import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { evaluationStates, failedStates } from '../../generators/vocabulary.js';
import { createMockApp, defaultCreatedState } from '../../mock/index.js';
import { createRequest, expectEvaluations, sdkCreateRequest, secret } from './helpers.js';

const app = createMockApp();

function post(body: unknown, prefer?: string) {
  const req = request(app).post('/evaluations').set('Content-Type', 'application/json');
  if (prefer) req.set('Prefer', prefer);
  return req.send(JSON.stringify(body));
}

describe('POST /evaluations', () => {
  it("reads an optional field sent as null as absent, as the real service does with the SDK's bodies", async () => {
    const pinned = 'now=2026-02-03T04:05:06Z';
    const res = await post(sdkCreateRequest(), pinned).expect(200);
    expect(expectEvaluations(res.body)).toHaveLength(2);
    const absent = createRequest();
    delete absent.lm_providers_keys;
    delete absent.correct_answer_column;
    expect((await post(absent, pinned)).text).toBe(res.text);
  });

  it('keeps null in a required field and inside lm_providers_keys a 422', async () => {
    const required = await post(createRequest({ testset_id: null })).expect(422);
    expect(JSON.stringify(required.body)).toContain('testset_id');
    const inside = await post(createRequest({ lm_providers_keys: { OPENAI_API_KEY: null } })).expect(422);
    expect(JSON.stringify(inside.body)).toContain('lm_providers_keys');
  });

  it("refuses a null optional field with strictNulls, the spec's letter, naming the field", async () => {
    const res = await post(sdkCreateRequest(), 'strictNulls=true').expect(422);
    expect(JSON.stringify(res.body)).toContain('correct_answer_column');
    await post(sdkCreateRequest(), 'strictNulls=false').expect(200);
  });

  it('answers one valid Evaluation per requested variant, coherent with the request', async () => {
    const res = await post(createRequest())
      .expect(200)
      .expect('Content-Type', /application\/json/);
    const evaluations = expectEvaluations(res.body);
    expect(evaluations.map((evaluation) => evaluation.variant_ids)).toEqual([['variant-a'], ['variant-b']]);
    for (const evaluation of evaluations) {
      expect(evaluation.app_id).toBe('app-1');
      expect(evaluation.testset_id).toBe('testset-1');
      for (const field of ['variant_names', 'variant_revision_ids', 'revisions'])
        expect(evaluation[field]).toHaveLength(1);
    }
  });

  it(`serves ${defaultCreatedState} by default: no results nor figures yet, as just after creation`, async () => {
    const res = await post(createRequest()).expect(200);
    for (const evaluation of expectEvaluations(res.body)) {
      expect(evaluation.status).toEqual({ type: 'status', value: 'EVALUATION_INITIALIZED' });
      expect(evaluation.aggregated_results).toEqual([]);
      expect(evaluation.updated_at >= evaluation.created_at).toBe(true);
    }
  });

  it('serves every lifecycle state, results for the requested configs only, an Error in failed states', async () => {
    for (const state of evaluationStates) {
      const res = await post(createRequest(), `state=${state}`).expect(200);
      expect(res.headers['preference-applied']).toBe(`state=${state}`);
      for (const evaluation of expectEvaluations(res.body)) {
        expect(evaluation.status.value).toBe(state);
        expect(evaluation.status.error !== undefined).toBe(failedStates.has(state));
        const configIds = evaluation.aggregated_results.map(
          (result: { evaluator_config: { id: string } }) => result.evaluator_config.id,
        );
        if (state === 'EVALUATION_FINISHED' || state === 'EVALUATION_FINISHED_WITH_ERRORS') {
          expect(configIds).toEqual(['config-1', 'config-2', 'config-3']);
        } else {
          expect(configIds).toEqual([]);
        }
        if (state === 'EVALUATION_FINISHED_WITH_ERRORS') {
          expect(
            evaluation.aggregated_results.some(
              (result: { result: { type: string } }) => result.result.type === 'error',
            ),
          ).toBe(true);
        }
      }
    }
  });

  it('answers the same request at the same moment with the same body, and a changed request with another', async () => {
    const pinned = 'now=2026-02-03T04:05:06.123456Z';
    const first = await post(createRequest(), pinned).expect(200);
    const again = await post(createRequest(), pinned).expect(200);
    const other = await post(createRequest({ app_id: 'app-2' }), pinned).expect(200);
    expect(again.text).toBe(first.text);
    expect(other.body[0].id).not.toBe(first.body[0].id);
  });

  it('answers an empty variant list with an empty array, and works with the optional fields left out', async () => {
    const empty = await post(createRequest({ variant_ids: [] })).expect(200);
    expect(empty.body).toEqual([]);
    const { lm_providers_keys: _keys, correct_answer_column: _column, ...required } = createRequest();
    expectEvaluations((await post(required).expect(200)).body);
  });

  it('follows the server profile and server state', async () => {
    for (const profile of ['minimal', 'full', 'mixed', 'edge'] as const) {
      const res = await request(createMockApp({ profile, scenario: { state: 'EVALUATION_FINISHED' } }))
        .post('/evaluations')
        .send(createRequest())
        .expect(200);
      for (const evaluation of expectEvaluations(res.body)) expect(evaluation.status.value).toBe('EVALUATION_FINISHED');
    }
  });

  it('never sends a provider key back, in any state', async () => {
    for (const state of evaluationStates) {
      const res = await post(createRequest(), `state=${state}`).expect(200);
      expect(res.text).not.toContain(secret);
      expect(res.text).not.toContain('lm_providers_keys');
    }
  });
});

describe('POST /evaluations with an invalid body', () => {
  const docs = (type: string) => `https://errors.pydantic.dev/2.7/v/${type}`;

  /** A number for a string (coerced by pydantic 1), a digit string and a float for integers, two fields missing. */
  function wrongBody(): Record<string, unknown> {
    const body = createRequest({
      app_id: 42,
      variant_ids: ['ok', 7],
      rate_limit: { batch_size: '10', max_retries: 3, retry_delay: 1.5 },
    });
    delete body.testset_id;
    return body;
  }

  it("answers 422 with every problem in pydantic 2's shape and order by default, coercing as it does", async () => {
    const body = wrongBody();
    const res = await post(body).expect(422);
    const limit = body.rate_limit;
    expect(res.body.detail).toEqual([
      {
        type: 'string_type',
        loc: ['body', 'app_id'],
        msg: 'Input should be a valid string',
        input: 42,
        url: docs('string_type'),
      },
      {
        type: 'string_type',
        loc: ['body', 'variant_ids', 1],
        msg: 'Input should be a valid string',
        input: 7,
        url: docs('string_type'),
      },
      {
        type: 'missing',
        loc: ['body', 'testset_id'],
        msg: 'Field required',
        input: expect.objectContaining({ app_id: 42 }),
        url: docs('missing'),
      },
      {
        type: 'int_from_float',
        loc: ['body', 'rate_limit', 'retry_delay'],
        msg: 'Input should be a valid integer, got a number with a fractional part',
        input: 1.5,
        url: docs('int_from_float'),
      },
      {
        type: 'missing',
        loc: ['body', 'rate_limit', 'delay_between_batches'],
        msg: 'Field required',
        input: limit,
        url: docs('missing'),
      },
    ]);
  });

  it("answers pydantic 1's shape and words in the ObjectId eras, which coerce numbers and floats", async () => {
    const body = wrongBody();
    expect((await post(body, 'era=0.17').expect(422)).body.detail).toEqual([
      { loc: ['body', 'testset_id'], msg: 'field required', type: 'value_error.missing' },
      { loc: ['body', 'rate_limit', 'delay_between_batches'], msg: 'field required', type: 'value_error.missing' },
    ]);
    expect(
      (await post({ ...createRequest(), app_id: null, variant_ids: [null] }, 'era=0.18').expect(422)).body.detail,
    ).toEqual([
      { loc: ['body', 'app_id'], msg: 'none is not an allowed value', type: 'type_error.none.not_allowed' },
      { loc: ['body', 'variant_ids', 0], msg: 'none is not an allowed value', type: 'type_error.none.not_allowed' },
    ]);
  });

  it('names a body that is not an object, and a missing rate_limit, as each stack does', async () => {
    expect((await post([]).expect(422)).body.detail).toEqual([
      {
        type: 'model_attributes_type',
        loc: ['body'],
        msg: 'Input should be a valid dictionary or object to extract fields from',
        input: [],
        url: docs('model_attributes_type'),
      },
    ]);
    // pydantic 1 reads a list as Python's dict() does: [] is an empty dict, so every required field is missing.
    const fields = ['app_id', 'variant_ids', 'evaluators_configs', 'testset_id', 'rate_limit'];
    expect((await post([], 'era=0.17').expect(422)).body.detail).toEqual(
      fields.map((field) => ({ loc: ['body', field], msg: 'field required', type: 'value_error.missing' })),
    );
    const { rate_limit: _limit, ...noLimit } = createRequest();
    expect((await post(noLimit, 'era=0.17').expect(422)).body.detail).toEqual([
      { loc: ['body', 'rate_limit'], msg: 'field required', type: 'value_error.missing' },
    ]);
  });

  it('never puts a provider key in a 422, even a wrong one, even where pydantic 2 echoes input', async () => {
    const keys = { OPENAI_API_KEY: secret, GROQ_API_KEY: 12345 };
    const res = await post(createRequest({ app_id: null, lm_providers_keys: keys })).expect(422);
    expect(res.text).not.toContain(secret);
    expect(res.text).not.toContain('12345');
    expect(res.body.detail).toContainEqual({
      type: 'string_type',
      loc: ['body', 'lm_providers_keys', 'GROQ_API_KEY'],
      msg: 'Input should be a valid string',
      input: '<PROVIDER_KEY>',
      url: docs('string_type'),
    });
    const { app_id: _app, ...noApp } = createRequest({ lm_providers_keys: { OPENAI_API_KEY: secret } });
    const missing = await post(noApp).expect(422);
    expect(missing.body.detail[0].input.lm_providers_keys).toEqual({ OPENAI_API_KEY: '<PROVIDER_KEY>' });
    expect(missing.text).not.toContain(secret);
    const v1 = await post(createRequest({ lm_providers_keys: { OPENAI_API_KEY: ['x', secret] } }), 'era=0.17');
    expect(v1.text).not.toContain(secret);
  });

  it("refuses provider key names outside the era's list, as those releases did; any name without an era", async () => {
    const body = createRequest({ lm_providers_keys: { MY_KEY: secret } });
    await post(body).expect(200);
    const names =
      "'OPENAI_API_KEY', 'MISTRAL_API_KEY', 'COHERE_API_KEY', 'ANTHROPIC_API_KEY', 'ANYSCALE_API_KEY', " +
      "'PERPLEXITYAI_API_KEY', 'DEEPINFRA_API_KEY', 'TOGETHERAI_API_KEY', 'ALEPHALPHA_API_KEY', " +
      "'OPENROUTER_API_KEY', " +
      "'GROQ_API_KEY'";
    expect((await post(body, 'era=0.19').expect(422)).body.detail).toEqual([
      {
        type: 'enum',
        loc: ['body', 'lm_providers_keys', 'MY_KEY', '[key]'],
        msg: `Input should be ${names} or 'GEMINI_API_KEY'`,
        input: 'MY_KEY',
        ctx: { expected: `${names} or 'GEMINI_API_KEY'` },
        url: docs('enum'),
      },
    ]);
    const v1 = (await post(body, 'era=0.17').expect(422)).body.detail;
    expect(v1).toEqual([
      expect.objectContaining({ loc: ['body', 'lm_providers_keys', '__key__'], type: 'type_error.enum' }),
    ]);
    expect(v1[0].msg).toBe(`value is not a valid enumeration member; permitted: ${names}, 'GEMINI_API_KEY'`);
  });

  it('refuses a create without provider keys whose configs hold an AI critique, as the service does', async () => {
    // Configs drawn until one run holds an AI critique: the same request with a key shows that config once finished.
    let refused: Record<string, unknown> | undefined;
    for (let n = 0; n < 200 && !refused; n++) {
      const { lm_providers_keys: _keys, ...body } = createRequest({ evaluators_configs: [`c${n}`, `d${n}`] });
      const res = await post(body, 'profile=full');
      if (res.status === 400) refused = body;
      else expect(res.status).toBe(200);
    }
    expect(refused).toBeDefined();
    const sent = refused as Record<string, unknown>;
    expect((await post(sent, 'profile=full').expect(400)).body).toEqual({ detail: 'Missing LM provider Key' });
    for (const keys of [null, {}]) await post({ ...sent, lm_providers_keys: keys }, 'profile=full').expect(400);
    const withKey = { ...sent, lm_providers_keys: { OPENAI_API_KEY: secret } };
    const [finished] = (await post(withKey, 'profile=full, state=finished').expect(200)).body;
    const kinds = finished.aggregated_results.map((result: any) => result.evaluator_config.evaluator_key);
    expect(kinds).toContain('auto_ai_critique');
  });

  it('refuses requests over the mock limits: 100 variants or configs, 1024-character ids', async () => {
    const many = Array.from({ length: 101 }, (_, i) => `v${i}`);
    const res = await post(createRequest({ variant_ids: many, app_id: 'x'.repeat(1025) })).expect(422);
    expect(res.body.detail.map(({ type, loc, msg }: Record<string, unknown>) => ({ type, loc, msg }))).toEqual([
      { type: 'string_too_long', loc: ['body', 'app_id'], msg: 'String should have at most 1024 characters' },
      {
        type: 'too_long',
        loc: ['body', 'variant_ids'],
        msg: 'List should have at most 100 items after validation, not 101',
      },
    ]);
    const longConfig = await post(createRequest({ evaluators_configs: ['ok', 'c'.repeat(2000)] })).expect(422);
    expect(longConfig.body.detail[0].loc).toEqual(['body', 'evaluators_configs', 1]);
  });
});
