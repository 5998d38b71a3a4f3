import { describe, expect, it } from 'vitest';
import { evaluationsForRequest, generateBatch, profiles } from '../../generators/index.js';
import type { Evaluation, EvaluatorConfig } from '../../schemas/types/resources.js';
import { isDocumentedEvaluatorConfig } from '../../schemas/validators/index.js';
import { createMockCore } from '../../mock/index.js';
import { createRequest } from '../mock/helpers.js';

/** Over many seeds: each check below reads 500 records per profile. */
const SEEDS = 500;
const figures = ['average_cost', 'total_cost', 'average_latency'] as const;
const objectId = /^[0-9a-f]{24}$/;

function configsOf(evaluation: Evaluation): EvaluatorConfig[] {
  return evaluation.aggregated_results
    .map((result) => result.evaluator_config)
    .filter((config): config is EvaluatorConfig => isDocumentedEvaluatorConfig(config));
}

describe("generated records carry the real service's details, over many seeds", () => {
  it('EVALUATION_AGGREGATION_FAILED says "Evaluation Aggregation Failed"', () => {
    const messages = [
      ...generateBatch('Evaluation', 'aggregation', SEEDS, { state: 'EVALUATION_AGGREGATION_FAILED' }),
    ].map((evaluation) => evaluation.status.error?.message);
    expect(new Set(messages)).toEqual(new Set(['Evaluation Aggregation Failed']));
  });

  it('evaluator configs always carry settings_values, alone and inside an Evaluation (minimal: required only)', () => {
    const without: string[] = [];
    for (const profile of profiles.filter((each) => each !== 'minimal')) {
      const nested = generateBatch('Evaluation', `nested-${profile}`, SEEDS / 5, {
        profile,
        state: 'EVALUATION_FINISHED',
      });
      const configs = [
        ...generateBatch('EvaluatorConfig', `settings-${profile}`, SEEDS, { profile }),
        ...[...nested].flatMap(configsOf),
      ];
      for (const config of configs)
        if (typeof config.settings_values !== 'object') without.push(`${profile}: ${JSON.stringify(config)}`);
    }
    expect(without).toEqual([]);
  });

  it('a run writes average_cost, total_cost and average_latency together: all three or none', () => {
    const seen = new Set<number>();
    for (const profile of profiles)
      for (const evaluation of generateBatch('Evaluation', `figures-${profile}`, SEEDS, { profile })) {
        // Any other count than 0 and 3 shows in the set.
        seen.add(figures.filter((field) => evaluation[field] !== undefined).length);
      }
    expect(seen).toEqual(new Set([0, 3]));
  });

  it('a created Evaluation has no figures until finished, under every profile; null under nullable', async () => {
    const request = { app_id: 'a', testset_id: 't', variant_ids: ['v1', 'v2'], evaluators_configs: ['c1'] };
    const early: string[] = [];
    const finishedCounts = new Set<string>();
    for (const profile of profiles)
      for (let seed = 0; seed < SEEDS / 5; seed++) {
        for (const state of ['EVALUATION_INITIALIZED', 'EVALUATION_STARTED'] as const)
          for (const evaluation of evaluationsForRequest(seed, request, { profile, state }))
            for (const field of figures)
              if (evaluation[field] !== undefined) early.push(`${profile} ${state} seed ${seed}: ${field}`);
        // Finished: one choice for the whole call, the three together.
        const finished = evaluationsForRequest(seed, request, { profile, state: 'EVALUATION_FINISHED' });
        const counts = finished.map((evaluation) => figures.filter((field) => evaluation[field] !== undefined).length);
        finishedCounts.add(counts.join());
      }
    expect(early).toEqual([]);
    expect([...finishedCounts].sort()).toEqual(['0,0', '3,3']);
    // A failed run aggregated with no valid values: `full` shows its figures as the error Result saying so.
    for (const evaluation of evaluationsForRequest(1, request, { profile: 'full', state: 'EVALUATION_FAILED' }))
      for (const field of figures) expect(evaluation[field]).toMatchObject({ type: 'error' });
    const body = new TextEncoder().encode(JSON.stringify(createRequest()));
    const headers = {
      'content-type': 'application/json',
      'content-length': String(body.length),
      prefer: 'nullable=true',
    };
    const answer = await createMockCore().handle({ method: 'POST', url: '/evaluations', headers, body });
    expect(answer.status).toBe(200);
    for (const evaluation of JSON.parse(new TextDecoder().decode(answer.body)) as Evaluation[])
      for (const field of figures) expect(evaluation[field]).toBeNull();
  });

  it('no record repeats a variant name, under every profile', () => {
    for (const profile of profiles)
      expect(
        [...generateBatch('HumanEvaluation', `names-${profile}`, SEEDS, { profile })]
          .map((record) => record.variant_names)
          .filter((names) => new Set(names).size !== names.length),
        profile,
      ).toEqual([]);
  });

  it("the Evaluations of one create call run one app's variants: one name prefix, no name twice", () => {
    const request = { app_id: 'a', testset_id: 't', variant_ids: ['v1', 'v2', 'v3', 'v4'], evaluators_configs: ['c'] };
    for (const profile of ['mixed', 'full', 'minimal'] as const)
      for (let seed = 0; seed < SEEDS / 5; seed++) {
        const names = evaluationsForRequest(seed, request, { profile }).flatMap(({ variant_names }) => variant_names);
        expect(new Set(names).size, JSON.stringify(names)).toBe(names.length);
        expect(new Set(names.map((name) => name.split('.')[0])).size, JSON.stringify(names)).toBe(1);
      }
  });

  it('a variant named twice in one create call is one variant: the same name, revision id and revision', () => {
    const request = { app_id: 'a', testset_id: 't', variant_ids: ['v1', 'v2', 'v1'], evaluators_configs: ['c'] };
    for (let seed = 0; seed < 50; seed++) {
      const [first, , again] = evaluationsForRequest(seed, request).map((evaluation) => [
        evaluation.variant_names,
        evaluation.variant_revision_ids,
        evaluation.revisions,
      ]);
      expect(again).toEqual(first);
    }
  });

  it("AI critique templates are the service's own, of the record's era: only placeholders the evaluator fills", () => {
    const filled = new Set(['llm_app_prompt_template', 'country', 'correct_answer', 'variant_output']);
    const eras = new Set<string>();
    for (const evaluation of generateBatch('Evaluation', 'critique', SEEDS, {
      profile: 'full',
      state: 'EVALUATION_FINISHED',
    }))
      for (const config of configsOf(evaluation).filter((each) => each.evaluator_key === 'auto_ai_critique')) {
        const template = String(config.settings_values?.prompt_template);
        for (const [, name] of template.matchAll(/\{(\w+)\}/g)) expect(filled).toContain(name);
        const older = objectId.test(evaluation.id);
        expect(template.includes('Expected Answer Column:')).toBe(!older);
        expect(template.includes('\n')).toBe(!older);
        eras.add(older ? 'object-id' : 'uuid-v7');
      }
    expect(eras).toEqual(new Set(['object-id', 'uuid-v7']));
  });
});
