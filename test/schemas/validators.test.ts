import { describe, expect, it } from 'vitest';
import { schemaFor, schemaNames, type SchemaName } from '../../schemas/index.js';
import { formatIssue, isDocumentedEvaluatorConfig, validate, validatorFor } from '../../schemas/validators/index.js';
import { isRfc3339DateTime } from '../../schemas/validators/date-time.js';

const example = (name: SchemaName) =>
  structuredClone((schemaFor(name).examples as unknown[])[0]) as Record<string, unknown>;

describe('date-time is RFC 3339 exactly', () => {
  it.each([
    '2024-05-20T10:11:12.123456+00:00',
    '2024-07-10T12:34:56.123456Z',
    '2024-07-10T12:34:56Z',
    '2024-07-10T12:34:56+05:30',
    '2024-07-10t12:34:56z',
    '2024-02-29T00:00:00Z',
    '2016-12-31T23:59:60Z',
  ])('accepts %s', (value) => expect(isRfc3339DateTime(value)).toBe(true));

  it.each([
    ['a space separator', '2024-07-10 12:34:56.123456+00:00'],
    ['no offset (naive)', '2024-05-20T10:11:12.123000'],
    ['an offset without colon', '2024-05-20T10:11:12+0000'],
    ['an hour-only offset', '2024-05-20T10:11:12+00'],
    ['a date only', '2024-05-20'],
    ['February 30th', '2024-02-30T10:11:12Z'],
    ['hour 24', '2024-05-20T24:00:00Z'],
    ['a non-leap February 29th', '2023-02-29T10:11:12Z'],
    ['an epoch number as string', '1716199872'],
  ])('rejects %s', (_why, value) => expect(isRfc3339DateTime(value)).toBe(false));

  it('is applied by the validators to every date-time field', () => {
    const record = example('HumanEvaluation');
    record.created_at = '2024-07-10 12:34:56.123456+00:00';
    const result = validate('HumanEvaluation', record);
    expect(result.valid).toBe(false);
    expect(result.issues).toEqual([expect.objectContaining({ pointer: '/created_at', keyword: 'format' })]);
    expect(result.issues[0]!.message).toMatch(/RFC 3339/);
  });
});

describe('validators', () => {
  it('accept every schema example', () => {
    for (const name of schemaNames) {
      for (const instance of schemaFor(name).examples as unknown[])
        expect(validate(name, instance), name).toEqual({ valid: true, issues: [] });
    }
  });

  it('are compiled once and reused', () => {
    expect(validatorFor('Evaluation')).toBe(validatorFor('Evaluation'));
  });

  it('refuse a name that is no schema with a TypeError listing the names (a JavaScript caller, a cast)', () => {
    const accepted = schemaNames.join(', ');
    expect(() => validate('evaluation' as SchemaName, {})).toThrow(
      new TypeError(`unknown schema "evaluation"; accepted: ${accepted}`),
    );
    expect(() => validatorFor('Nope' as SchemaName)).toThrow(
      new TypeError(`unknown schema "Nope"; accepted: ${accepted}`),
    );
  });

  it('accept fields the spec does not list (it does not forbid them)', () => {
    expect(validate('Evaluation', { ...example('Evaluation'), region: 'eu-west-1' }).valid).toBe(true);
  });

  it('reject null for an optional field: null is not the spec type', () => {
    const result = validate('Evaluation', { ...example('Evaluation'), average_cost: null });
    expect(result.issues).toEqual([{ pointer: '/average_cost', message: 'must be object', keyword: 'type' }]);
  });

  it('collect every error, each with its JSON pointer and a readable message', () => {
    const body = example('CreateEvaluationRequest');
    delete body.app_id;
    (body.rate_limit as Record<string, unknown>).batch_size = '10';
    (body.variant_ids as unknown[])[1] = 7;
    const result = validate('CreateEvaluationRequest', body);
    expect(result.issues.map(formatIssue).sort()).toEqual([
      '/app_id is required but missing',
      '/rate_limit/batch_size must be integer',
      '/variant_ids/1 must be string',
    ]);
  });

  it('point at a missing nested field itself', () => {
    const body = example('CreateEvaluationRequest');
    delete (body.rate_limit as Record<string, unknown>).retry_delay;
    expect(validate('CreateEvaluationRequest', body).issues).toEqual([
      { pointer: '/rate_limit/retry_delay', message: 'is required but missing', keyword: 'required' },
    ]);
  });

  it('check lm_providers_keys values are strings, whatever the names', () => {
    const body = { ...example('CreateEvaluationRequest'), lm_providers_keys: { ANY_NAME: 'x', OTHER: 5 } };
    expect(validate('CreateEvaluationRequest', body).issues.map(formatIssue)).toEqual([
      '/lm_providers_keys/OTHER must be string',
    ]);
  });

  it('tell the documented evaluator_config alternative from the ones the spec does not show', () => {
    const aggregated = example('AggregatedResult');
    expect(isDocumentedEvaluatorConfig(aggregated.evaluator_config)).toBe(true);
    for (const other of [{}, { id: 'x' }, null, 'deleted']) {
      expect(validate('AggregatedResult', { ...aggregated, evaluator_config: other }).valid).toBe(true);
      expect(isDocumentedEvaluatorConfig(other)).toBe(false);
    }
  });
});
