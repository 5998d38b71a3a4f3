import { describe, expect, it } from 'vitest';
import { generators } from '../../generators/index.js';
import { invalidCases } from '../../generators/invalid.js';
import { requiredProperties } from '../../schemas/index.js';
import { validate } from '../../schemas/validators/index.js';

describe('invalidCases derives single-rule breakages from the schema', () => {
  const body = generators.CreateEvaluationRequest(5, { profile: 'full' });
  const cases = invalidCases('CreateEvaluationRequest', body);
  const rules = cases.map((item) => item.rule);

  it('removes each required field, nested ones included', () => {
    for (const field of requiredProperties('CreateEvaluationRequest'))
      expect(rules).toContain(`/${field}: required (removed)`);
    for (const field of requiredProperties('RateLimit'))
      expect(rules).toContain(`/rate_limit/${field}: required (removed)`);
  });

  it('sends rate_limit integers as strings and as floats', () => {
    for (const field of requiredProperties('RateLimit')) {
      expect(rules).toContainEqual(
        expect.stringMatching(new RegExp(`^/rate_limit/${field}: type integer \\(sent as the string`)),
      );
      expect(rules).toContain(`/rate_limit/${field}: type integer (sent as a float)`);
    }
  });

  it('breaks array items and lm_providers_keys values', () => {
    expect(rules).toContain('/variant_ids/0: type string (sent as a number)');
    expect(rules).toContainEqual(
      expect.stringMatching(/^\/lm_providers_keys\/[A-Z_]+: type string \(sent as a number\)$/),
    );
  });

  it('each case fails validation with exactly its one issue, and leaves the source body untouched', () => {
    for (const item of cases) {
      const { issues } = validate('CreateEvaluationRequest', item.body);
      expect(issues.map((issue) => issue.pointer)).toEqual([item.pointer]);
      expect(issues[0]!.keyword).toBe(item.keyword);
    }
    expect(validate('CreateEvaluationRequest', body).valid).toBe(true);
  });
});
