import { describe, expect, it } from 'vitest';
import { schemas } from '../../schemas/index.js';
import { schemaAt } from '../../schemas/walk.js';
import { generators } from '../../generators/index.js';

describe('schemaAt: the schema that governs a value at a path', () => {
  const evaluation = generators.Evaluation(1, { profile: 'full', state: 'EVALUATION_FINISHED' });

  it('follows properties, $refs and array items', () => {
    expect(schemaAt(schemas.Evaluation, evaluation, [])).toBe(schemas.Evaluation);
    expect(schemaAt(schemas.Evaluation, evaluation, ['status'])).toBe(schemas.Result);
    expect(schemaAt(schemas.Evaluation, evaluation, ['status', 'error', 'message'])).toEqual({ type: 'string' });
    expect(schemaAt(schemas.Evaluation, evaluation, ['variant_ids', '0'])).toEqual({ type: 'string' });
    expect(schemaAt(schemas.Evaluation, evaluation, ['aggregated_results', '0'])).toBe(schemas.AggregatedResult);
  });

  it('passes an anyOf by the branch the value there matches', () => {
    const config = ['aggregated_results', '0', 'evaluator_config'];
    expect(schemaAt(schemas.Evaluation, evaluation, config)?.anyOf).toHaveLength(2);
    expect(schemaAt(schemas.Evaluation, evaluation, [...config, 'evaluator_key'])).toEqual({ type: 'string' });
    const undocumented = { aggregated_results: [{ evaluator_config: 'cfg-1' }] };
    expect(schemaAt(schemas.Evaluation, undocumented, [...config, 'evaluator_key'])).toBeUndefined();
  });

  it("takes an object's additionalProperties for names it does not declare", () => {
    const request = { lm_providers_keys: { OPENAI_API_KEY: 'sk-1' } };
    expect(schemaAt(schemas.CreateEvaluationRequest, request, ['lm_providers_keys', 'OPENAI_API_KEY'])).toEqual({
      type: 'string',
    });
  });

  it('answers undefined off the schema, and never takes an inherited name for a property', () => {
    expect(schemaAt(schemas.Evaluation, evaluation, ['no_such_field'])).toBeUndefined();
    expect(schemaAt(schemas.Evaluation, evaluation, ['constructor'])).toBeUndefined();
    expect(schemaAt(schemas.Evaluation, evaluation, ['__proto__', 'type'])).toBeUndefined();
    expect(schemaAt(schemas.Evaluation, evaluation, ['app_id', 'length'])).toBeUndefined();
  });
});
