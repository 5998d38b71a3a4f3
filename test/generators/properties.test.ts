import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderableMoments } from '../../generators/moments.js';
import { build, buildMany, FactoryError } from '../../generators/factories.js';
import { createGenerators, evaluationsForRequest, profiles, type GenerateOptions } from '../../generators/index.js';
import { evaluationStates, evaluatorKeys, resultTypes, type EvaluationStateName } from '../../generators/vocabulary.js';
import { resourceNames, type ResourceName } from '../../schemas/index.js';
import { validate, formatIssue } from '../../schemas/validators/index.js';
import { anyId, createRequest } from '../properties/arbitraries.js';
import { limitFor, runs } from '../properties/runs.js';

/** A moment inside the span the generators render, at its edges, or outside it (a hostile neighbour). */
const moment = fc.oneof(
  fc.integer({ min: renderableMoments.earliest, max: renderableMoments.latest }),
  fc.constantFrom(renderableMoments.earliest, renderableMoments.latest, 0, -1, renderableMoments.latest + 1),
  fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, 1.5, 2 ** 60),
);
/** A state as callers may name it, or anything else a JavaScript caller may pass. */
const state = fc.oneof(
  fc.constantFrom(...evaluationStates),
  fc.constantFrom('failed', 'Finished', 'started'),
  fc.string({ maxLength: 20 }),
  fc.constantFrom(null, 7, {}) as fc.Arbitrary<unknown>,
);

/** The options each generator documents, each absent or drawn over its value space and its neighbours. */
const optionsOf: { [N in ResourceName]: fc.Arbitrary<Record<string, unknown>> } = {
  HumanEvaluation: fc.record(
    { id: anyId, idStyle: fc.constantFrom('object-id', 'uuid-v7'), status: fc.string(), notAfter: moment },
    { requiredKeys: [] },
  ),
  Evaluation: fc.record(
    {
      state,
      appId: anyId,
      testsetId: anyId,
      variantId: anyId,
      evaluatorConfigIds: fc.array(anyId, { maxLength: 100 }),
    },
    { requiredKeys: [] },
  ),
  Result: fc.record(
    {
      type: fc.constantFrom(...resultTypes),
      state,
      evaluatorKey: fc.constantFrom(...evaluatorKeys),
      value: fc.jsonValue(),
      errorMessage: fc.string(),
    },
    { requiredKeys: [] },
  ),
  Error: fc.record({ message: fc.string() }, { requiredKeys: [] }),
  AggregatedResult: fc.record(
    {
      evaluatorConfigId: anyId,
      evaluatorKey: fc.constantFrom(...evaluatorKeys),
      failed: fc.boolean(),
      before: moment,
    },
    { requiredKeys: [] },
  ),
  EvaluatorConfig: fc.record(
    { id: anyId, evaluatorKey: fc.constantFrom(...evaluatorKeys), before: moment },
    { requiredKeys: [] },
  ),
  UndocumentedEvaluatorConfig: fc.constant({}),
  CreateEvaluationRequest: fc.constant({}),
  RateLimit: fc.record({ defaults: fc.boolean() }, { requiredKeys: [] }),
};

const generated = fc
  .constantFrom(...resourceNames)
  .chain((name) =>
    fc.tuple(
      fc.constant(name),
      fc.oneof(fc.integer(), fc.string({ maxLength: 30 })),
      optionsOf[name],
      fc.constantFrom(...profiles),
    ),
  );

/** Valid against its schema, or a FactoryError that names a field and what it accepts: never anything else. */
function expectValidOrRefused(name: ResourceName, make: () => unknown): 'made' | 'refused' {
  let instance: unknown;
  try {
    instance = make();
  } catch (error) {
    expect(error, String(error)).toBeInstanceOf(FactoryError);
    expect((error as FactoryError).field).not.toBe('');
    expect((error as FactoryError).message).toContain('accepted: ');
    return 'refused';
  }
  const result = validate(name, instance);
  expect(result.issues.map(formatIssue), name).toEqual([]);
  return 'made';
}

const generatorRuns = 400;
const factoryRuns = 200;
const requestRuns = 100;

describe('property: every generator ends with a valid record or a FactoryError naming the field', () => {
  const set = createGenerators();

  it(
    `each generator set's generators, for any option combination (${generatorRuns} runs)`,
    () => {
      fc.assert(
        fc.property(generated, ([name, seed, options, profile]) => {
          const generate = set[name] as (seed: unknown, options: GenerateOptions<typeof name>) => unknown;
          const outcome = expectValidOrRefused(name, () => generate(seed, { ...options, profile }));
          if (outcome === 'made')
            expect(generate(seed, { ...options, profile })).toEqual(generate(seed, { ...options, profile }));
        }),
        runs(generatorRuns),
      );
    },
    limitFor(generatorRuns, 50),
  );

  it(
    `build and buildMany, for any seed, state, profile and count (${factoryRuns} runs)`,
    () => {
      fc.assert(
        fc.property(
          fc.constantFrom(...resourceNames),
          fc.oneof(fc.integer(), fc.string({ maxLength: 30 })),
          fc.option(state, { nil: undefined }),
          fc.constantFrom(...profiles),
          fc.integer({ min: 0, max: 5 }),
          (name, seed, stateName, profile, count) => {
            const options = {
              seed,
              profile,
              ...(stateName !== undefined && { state: stateName as EvaluationStateName }),
            };
            expectValidOrRefused(name, () => build(name, options));
            let many: unknown[] = [];
            try {
              many = buildMany(name, count, options);
            } catch (error) {
              expect(error).toBeInstanceOf(FactoryError);
            }
            for (const instance of many) expect(validate(name, instance).valid).toBe(true);
          },
        ),
        runs(factoryRuns),
      );
    },
    limitFor(factoryRuns, 50),
  );

  it(
    `evaluationsForRequest, for any create request and moment (${requestRuns} runs)`,
    () => {
      fc.assert(
        fc.property(
          createRequest,
          fc.option(state, { nil: undefined }),
          fc.option(moment, { nil: undefined }),
          fc.constantFrom(...profiles),
          (request, stateName, createdAt, profile) => {
            const ids = request as Parameters<typeof evaluationsForRequest>[1];
            let evaluations: unknown[];
            try {
              evaluations = evaluationsForRequest(1, ids, {
                profile,
                ...(stateName !== undefined && { state: stateName as never }),
                ...(createdAt !== undefined && { createdAt }),
              });
            } catch (error) {
              expect(error, String(error)).toBeInstanceOf(FactoryError);
              return;
            }
            expect(evaluations).toHaveLength(ids.variant_ids.length);
            for (const evaluation of evaluations) expectValidOrRefused('Evaluation', () => evaluation);
          },
        ),
        runs(requestRuns),
      );
    },
    limitFor(requestRuns, 300),
  );
});
