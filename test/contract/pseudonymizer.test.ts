import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { build } from '../../generators/factories.js';
import { bodySchema, mapStrings, type StringKind } from '../../http/personal-values.js';
import { Pseudonymizer } from '../../http/pseudonymizer.js';
import { pointerOf } from '../../schemas/validators/json-pointer.js';

const key = Buffer.alloc(32, 9);
const pseudonymizer = () => new Pseudonymizer((text) => createHmac('sha256', key).update(text).digest());

/** Each string of a body by its pointer, with the kind the schemas give it. */
function kinds(schema: Parameters<typeof mapStrings>[0], body: unknown): Record<string, StringKind> {
  const found: Record<string, StringKind> = {};
  mapStrings(schema, body, (text, kind, path) => {
    found[pointerOf(path())] = kind;
    return text;
  });
  return found;
}

describe('which strings are personal: read from the schemas x-personal marks', () => {
  it('a HumanEvaluation: ids and names personal; type, state, revisions, dates not; an extra field undeclared', () => {
    const record = { ...build('HumanEvaluation', { seed: 1, overrides: { variant_ids: ['a', 'b'] } }), owner: 'x' };
    expect(kinds(bodySchema('HumanEvaluation'), record)).toEqual({
      '/id': 'personal',
      '/app_id': 'personal',
      '/user_id': 'personal',
      '/user_username': 'personal',
      '/evaluation_type': 'declared',
      '/variant_ids/0': 'personal',
      '/variant_ids/1': 'personal',
      '/variant_names/0': 'personal',
      '/variant_names/1': 'personal',
      '/variants_revision_ids/0': 'personal',
      '/variants_revision_ids/1': 'personal',
      '/revisions/0': 'declared',
      '/revisions/1': 'declared',
      '/testset_id': 'personal',
      '/testset_name': 'personal',
      '/status': 'declared',
      '/created_at': 'declared',
      '/updated_at': 'declared',
      '/owner': 'undeclared',
    });
  });

  it("an Evaluation: a state's Result kept whole, a model's output and a stacktrace personal, settings not", () => {
    const evaluation = build('Evaluation', { seed: 3, profile: 'full', state: 'failed' });
    const config = {
      id: 'c1',
      name: 'Exact match',
      evaluator_key: 'auto_exact_match',
      settings_values: { correct_answer_key: 'correct_answer' },
      created_at: '2024-05-20T10:11:12Z',
      updated_at: '2024-05-20T10:11:12Z',
    };
    const output = { type: 'text', value: { said: ['a model wrote this'] }, error: { message: 'm', stacktrace: 't' } };
    const found = kinds(bodySchema('Evaluation', true), [
      { ...evaluation, aggregated_results: [{ evaluator_config: config, result: output }] },
    ]);
    expect(found).toMatchObject({
      '/0/status/type': 'declared',
      '/0/status/value': 'declared',
      '/0/status/error/message': 'declared',
      '/0/status/error/stacktrace': 'declared',
      '/0/aggregated_results/0/evaluator_config/id': 'personal',
      '/0/aggregated_results/0/evaluator_config/name': 'personal',
      '/0/aggregated_results/0/evaluator_config/evaluator_key': 'declared',
      '/0/aggregated_results/0/evaluator_config/settings_values/correct_answer_key': 'undeclared',
      '/0/aggregated_results/0/result/type': 'declared',
      '/0/aggregated_results/0/result/value/said/0': 'personal',
      '/0/aggregated_results/0/result/error/message': 'declared',
      '/0/aggregated_results/0/result/error/stacktrace': 'personal',
    });
  });

  it('a create request: its four references personal, its rate limit and column not', () => {
    const body = build('CreateEvaluationRequest', { seed: 2, overrides: { correct_answer_column: 'expected' } });
    const found = kinds(bodySchema('CreateEvaluationRequest'), body);
    expect(
      Object.entries(found)
        .filter(([, kind]) => kind === 'personal')
        .map(([pointer]) => pointer)
        .sort(),
    ).toEqual(
      [
        '/app_id',
        ...body.evaluators_configs.map((_, index) => `/evaluators_configs/${index}`),
        '/testset_id',
        ...body.variant_ids.map((_, index) => `/variant_ids/${index}`),
      ].sort(),
    );
    expect(found['/correct_answer_column']).toBe('declared');
  });
});

describe('a pseudonymizer: bodies by schema, the path id, the rest swept', () => {
  it("rewrites the path's id under any base path, keeps the operation's words and a trailing slash", () => {
    const p = pseudonymizer();
    const id = '6637c0a25368ef07b03a64cd';
    const fake = p.pseudonymOf(id);
    expect(p.path(`/human-evaluations/${id}`)).toBe(`/human-evaluations/${fake}`);
    expect(p.path(`/api/v1/human-evaluations/${id}/`)).toBe(`/api/v1/human-evaluations/${fake}/`);
    // A percent-encoded id is read decoded, and its pseudonym written encoded.
    const spaced = 'jane doe';
    expect(p.path(`/human-evaluations/${encodeURIComponent(spaced)}`)).toBe(
      `/human-evaluations/${encodeURIComponent(p.pseudonymOf(spaced))}`,
    );
    expect(p.path('/evaluations')).toBe('/evaluations');
  });

  it('sweeps a value met in a body from the query and headers, in clear, escaped, percent-encoded and base64', () => {
    const p = pseudonymizer();
    const body = build('CreateEvaluationRequest', { seed: 4 });
    const app = body.app_id;
    const fake = p.pseudonymOf(app);
    const written = p.request({
      method: 'POST',
      path: '/evaluations',
      query: `app=${encodeURIComponent(app)}&b64=${Buffer.from(app).toString('base64')}`,
      request: {
        headers: { 'x-app': app, 'x-note': JSON.stringify(`\\u00${app.charCodeAt(0).toString(16)}${app.slice(1)}`) },
        body,
        body_truncated: false,
      },
    });
    if ('refused' in written) throw new Error(written.refused);
    const text = JSON.stringify(written.value);
    expect(text).not.toContain(app);
    expect(text).not.toContain(Buffer.from(app).toString('base64'));
    expect(written.value.request.headers!['x-app']).toBe(fake);
    expect((written.value.request.body as { app_id: string }).app_id).toBe(fake);
    // The body recorded is never changed: the pseudonymizer works on a copy.
    expect(body.app_id).toBe(app);
  });

  it('validates a record again: one its schema refuses after the rewrite is refused, naming the rule', () => {
    const p = pseudonymizer();
    const record = build('HumanEvaluation', { seed: 5 });
    const written = p.record('HumanEvaluation', structuredClone(record));
    expect('value' in written).toBe(true);
    // No personal field has a pattern or format today, so a pseudonym (of the original's length and kinds) cannot
    // fail one; what fails after the rewrite is refused whatever the cause, here a number no string rule rewrote.
    const odd = p.record('HumanEvaluation', { ...structuredClone(record), user_id: 12345 });
    expect(odd).toEqual({ refused: 'its pseudonyms fail the HumanEvaluation schema (/user_id must be string)' });
  });
});
