import { describe, expect, it } from 'vitest';
import { build, buildMany, FactoryError } from '../../generators/factories.js';
import { expectValid } from '../mock/helpers.js';

describe('build and buildMany', () => {
  it('builds a valid instance of every kind, the same for the same seed, another for another seed', () => {
    const evaluation = build('Evaluation', { seed: 7 });
    expectValid('Evaluation', evaluation);
    expect(build('Evaluation', { seed: 7 })).toEqual(evaluation);
    expect(build('Evaluation', { seed: 8 })).not.toEqual(evaluation);
    expectValid('CreateEvaluationRequest', build('CreateEvaluationRequest', { profile: 'edge' }));
  });

  it('merges deep overrides into a coherent instance: a failed status gets its Error, the app id is kept', () => {
    const failed = build('Evaluation', {
      seed: 3,
      overrides: { app_id: 'my-app', status: { value: 'EVALUATION_FAILED' } },
    });
    expectValid('Evaluation', failed);
    expect(failed.app_id).toBe('my-app');
    expect(failed.status.value).toBe('EVALUATION_FAILED');
    expect(failed.status.error).toBeDefined();
    const human = build('HumanEvaluation', {
      state: 'EVALUATION_STARTED',
      overrides: { id: 'he-1', testset_name: 'mine' },
    });
    expect([human.id, human.status, human.testset_name]).toEqual(['he-1', 'EVALUATION_STARTED', 'mine']);
  });

  it('replaces arrays whole and leaves the rest as generated', () => {
    const plain = build('HumanEvaluation', { seed: 5 });
    const changed = build('HumanEvaluation', { seed: 5, overrides: { revisions: ['9', '9'] } });
    expect(changed).toEqual({ ...plain, revisions: ['9', '9'] });
  });

  it('throws an error naming the field and the rule an override breaks', () => {
    expect(() => build('HumanEvaluation', { overrides: { created_at: 'yesterday' } })).toThrow(FactoryError);
    expect(() => build('HumanEvaluation', { overrides: { created_at: 'yesterday' } })).toThrow(
      /\/created_at must be an RFC 3339 date-time.*\(rule: format\)/,
    );
    expect(() => build('Evaluation', { overrides: { variant_ids: 'v1' as never } })).toThrow(
      /\/variant_ids must be array \(rule: type\)/,
    );
  });

  it('buildMany makes distinct instances from one seed, the same batch every time, overrides on each', () => {
    const batch = buildMany('Evaluation', 5, { seed: 'batch', overrides: { app_id: 'shared' } });
    expect(batch).toHaveLength(5);
    expect(new Set(batch.map((evaluation) => evaluation.id)).size).toBe(5);
    expect(batch.every((evaluation) => evaluation.app_id === 'shared')).toBe(true);
    expect(buildMany('Evaluation', 5, { seed: 'batch', overrides: { app_id: 'shared' } })).toEqual(batch);
  });
});
