import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runs } from '../properties/runs.js';
import { declaredProperties } from '../../schemas/index.js';
import { build, buildMany, FactoryError } from '../../generators/factories.js';
import { expectValid } from '../mock/helpers.js';
import { evaluationStates, lifecycleStates } from '../../generators/vocabulary.js';
import { variantArrays } from '../../generators/recipes/shared.js';
import { schemas } from '../../schemas/index.js';
import { valueAt } from '../../schemas/validators/json-pointer.js';
import { evaluationsForRequest, generators } from '../../generators/index.js';
import type { EvaluationState } from '../../generators/vocabulary.js';

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

  it('refuses an unknown resource name in words, at run time too (a JavaScript caller, a cast)', () => {
    // @ts-expect-error: 'Nope' is no resource, so it does not compile (TS2345)
    expect(() => build('Nope')).toThrow(FactoryError);
    const error = catchFactoryError(() => build('Nope' as never));
    expect([error.field, error.value]).toEqual(['name', 'Nope']);
    expect(error.message).toMatch(/^build\("Nope"\): unknown resource; accepted: HumanEvaluation, Evaluation, /);
    expect(() => build('HumanEvaluaton' as never)).toThrow(
      /^build\("HumanEvaluaton"\): unknown resource; did you mean HumanEvaluation\?; accepted: /,
    );
  });

  it('override objects are exact: a misspelt key does not compile; a JavaScript caller gets the nearest field', () => {
    // @ts-expect-error: testset_nmae is not a field of Evaluation (TS2353)
    expect(() => build('Evaluation', { overrides: { testset_nmae: 'x' } })).toThrow(
      new RegExp(
        String.raw`^build\('Evaluation'\): the overrides name no field "/testset_nmae" of Evaluation; ` +
          String.raw`did you mean testset_name\?; accepted: id, `,
      ),
    );
    // @ts-expect-error: nested objects are exact too
    expect(() => build('Evaluation', { overrides: { status: { vaule: 'x' } } })).toThrow(
      expect.objectContaining({ field: '/status/vaule', message: expect.stringContaining('did you mean value?') }),
    );
    // @ts-expect-error: stauts is no field of HumanEvaluation
    expect(() => build('HumanEvaluation', { overrides: { stauts: 'x' } })).toThrow(/did you mean status\?/);
    // A name near no field is refused too, without a guess.
    // @ts-expect-error: nor is this
    expect(() => build('HumanEvaluation', { overrides: { favourite_colour: 'x' } })).toThrow(
      /no field "\/favourite_colour" of HumanEvaluation; accepted:/,
    );
  });

  it('refuses an option build() does not take, naming the one a typo meant, where it was ignored silently', () => {
    // @ts-expect-error: overides is no option (TS2561)
    const error = catchFactoryError(() => build('Evaluation', { overides: { app_id: 'x' } }));
    expect([error.field, error.value]).toEqual(['options', 'overides']);
    expect(error.message).toMatch(
      /^build\('Evaluation'\): no option "overides"; did you mean overrides\?; accepted: seed, /,
    );
    // @ts-expect-error: nor is sede
    expect(() => buildMany('HumanEvaluation', 2, { sede: 3 })).toThrow(/no option "sede"; did you mean seed\?/);
    // Each resource's generator options are build()'s too.
    expect(build('HumanEvaluation', { id: 'given', idStyle: 'uuid-v7' }).id).toBe('given');
    expect(() => build('RateLimit', { idStyle: 'uuid-v7' } as never)).toThrow(/no option "idStyle"/);
  });

  it('property: options of any names build when build() takes each, else are refused naming the first, briefly', () => {
    // CreateEvaluationRequest's generator takes no option of its own: build()'s are all it takes.
    const taken = ['seed', 'profile'];
    const slip = fc
      .tuple(fc.constantFrom('seed', 'state', 'overrides', 'profile'), fc.nat(), fc.constantFrom('', 'x', 'e'))
      .map(([word, at, letter]) => word.slice(0, at % word.length) + letter + word.slice((at % word.length) + 1));
    const name = fc.oneof(fc.constantFrom(...taken), slip, fc.string({ maxLength: 20 }), fc.string({ minLength: 500 }));
    fc.assert(
      fc.property(fc.uniqueArray(name, { minLength: 1, maxLength: 3 }), (names) => {
        const options = Object.fromEntries(names.map((key) => [key, key === 'profile' ? 'full' : 1]));
        // In the object's own key order (integer-like names first), as build() reads them.
        const unknown = Object.keys(options).find(
          (key) => !taken.includes(key) && !['state', 'overrides'].includes(key),
        );
        if (unknown === undefined && !names.includes('state') && !names.includes('overrides')) {
          expectValid('CreateEvaluationRequest', build('CreateEvaluationRequest', options as never));
          return;
        }
        if (unknown === undefined) return;
        const error = catchFactoryError(() => build('CreateEvaluationRequest', options as never));
        expect([error.field, error.value]).toEqual(['options', unknown]);
        expect(error.message.length).toBeLessThan(400);
      }),
      runs(300),
    );
  });

  it('property: an override of any keys is kept when each is a field, else refused naming the first, briefly', () => {
    const fields = declaredProperties('HumanEvaluation');
    const key = fc.oneof(fc.constantFrom(...fields), fc.string({ maxLength: 30 }), fc.string({ minLength: 1000 }));
    fc.assert(
      fc.property(fc.uniqueArray(key, { minLength: 1, maxLength: 4 }), (keys) => {
        const overrides = Object.fromEntries(keys.map((name) => [name, null]));
        const unknown = keys.find((name) => !fields.includes(name));
        let thrown: unknown;
        try {
          build('HumanEvaluation', { overrides: overrides as never });
        } catch (error) {
          thrown = error;
        }
        expect(thrown).toBeInstanceOf(FactoryError);
        const error = thrown as FactoryError;
        // A field set to null breaks the schema; an unknown name is refused first, by name (JSON.stringify shows it).
        if (unknown !== undefined) expect(error.field).toBe(`/${unknown}`);
        if (unknown !== undefined) expect(error.message).toMatch(/the overrides name no field/);
        else expect(error.message).toMatch(/the overrides break the schema/);
        expect(error.message.length).toBeLessThan(1500);
      }),
      runs(200),
    );
  });

  it("takes any key where the schema declares none: a Result's value, an evaluator's settings", () => {
    const built = build('Evaluation', { state: 'failed', overrides: { status: { value: 'EVALUATION_FAILED' } } });
    expect(built.status.value).toBe('EVALUATION_FAILED');
    const config = build('EvaluatorConfig', { overrides: { settings_values: { anything: { deep: [1] } } } });
    expect(config.settings_values).toMatchObject({ anything: { deep: [1] } });
  });

  it('reads states as the mock does: short forms in any case; refuses an unknown one naming what is accepted', () => {
    expect(build('Evaluation', { state: 'failed' }).status.value).toBe('EVALUATION_FAILED');
    expect(build('Evaluation', { state: 'Failed' as never }).status.error).toBeDefined();
    expect(build('HumanEvaluation', { state: 'STARTED' }).status).toBe('EVALUATION_STARTED');
    // @ts-expect-error: 'DONE' is no state
    const error = catchFactoryError(() => build('Evaluation', { state: 'DONE' }));
    expect([error.field, error.value]).toEqual(['state', 'DONE']);
    expect(error.message).toBe(
      'build(\'Evaluation\'): state cannot be "DONE"; accepted: EVALUATION_INITIALIZED, EVALUATION_STARTED, ' +
        'EVALUATION_FINISHED, EVALUATION_FINISHED_WITH_ERRORS, EVALUATION_FAILED, EVALUATION_AGGREGATION_FAILED ' +
        '(or the part after EVALUATION_, any case)',
    );
    // A typo gets the state it most likely meant, short or in full, as the mock's Prefer: state= does.
    expect(() => build('Evaluation', { state: 'faild' as never })).toThrow(
      /^build\('Evaluation'\): state cannot be "faild"; did you mean failed\?; accepted: /,
    );
    expect(() => build('HumanEvaluation', { state: 'EVALUATION_FINISHD' as never })).toThrow(
      /did you mean EVALUATION_FINISHED\?/,
    );
  });

  it('property: any state text builds in the state it names, or is refused briefly; never built in another', () => {
    // The documented reading, spelt apart from evaluationStateFrom: a state's name in full or after EVALUATION_,
    // any case.
    const named = (text: string) =>
      evaluationStates.find((state) => [state, state.slice('EVALUATION_'.length)].includes(text.toUpperCase()));
    const dropOne = fc.tuple(fc.constantFrom(...evaluationStates), fc.boolean(), fc.nat()).map(([state, short, at]) => {
      const name = short ? state.slice('EVALUATION_'.length).toLowerCase() : state;
      return name.slice(0, at % name.length) + name.slice((at % name.length) + 1);
    });
    const text = fc.oneof(fc.constantFrom(...evaluationStates), dropOne, fc.string({ maxLength: 30 }), fc.string());
    fc.assert(
      fc.property(text, (typed) => {
        const state = named(typed);
        if (state !== undefined) {
          expect(build('Evaluation', { state: typed as never }).status.value).toBe(state);
          return;
        }
        const error = catchFactoryError(() => build('Evaluation', { state: typed as never }));
        expect([error.field, error.value]).toEqual(['state', typed]);
        expect(error.message.length).toBeLessThan(400);
        // A suggestion is itself a state the factory reads.
        const meant = /; did you mean (.+?)\?; accepted/.exec(error.message)?.[1];
        if (meant !== undefined) expect(named(meant)).toBeDefined();
      }),
      runs(300),
    );
  });

  const variantArrays = ['variant_ids', 'variant_names', 'variants_revision_ids', 'revisions'] as const;

  it.each([1, 2])('a variant_ids override of %i draws a HumanEvaluation comparing that many variants', (count) => {
    const ids = ['v-1', 'v-2'].slice(0, count);
    for (const seed of [1, 2, 3, 4, 5, 6]) {
      const human = build('HumanEvaluation', { seed, overrides: { variant_ids: ids } });
      expectValid('HumanEvaluation', human);
      expect(variantArrays.map((key) => human[key].length)).toEqual([count, count, count, count]);
      expect(human.variant_ids).toEqual(ids);
      expect(human.evaluation_type).toBe(count === 1 ? 'single_model_test' : 'human_a_b_testing');
    }
  });

  it('a variant_ids override of 3 alone is refused naming the sibling arrays; all four of 3 are kept', () => {
    const three = ['v-1', 'v-2', 'v-3'];
    const error = catchFactoryError(() => build('HumanEvaluation', { overrides: { variant_ids: three } }));
    expect(error.field).toBe('variant_ids');
    expect(error.message).toMatch(/the variant arrays differ in length \(variant_ids 3, variant_names \d, /);
    expect(error.message).toMatch(/variants_revision_ids \d, revisions \d\); accepted: variant_ids, variant_names, /);
    const overrides = {
      variant_ids: three,
      variant_names: ['a', 'b', 'c'],
      variants_revision_ids: three,
      revisions: three,
    };
    const human = build('HumanEvaluation', { overrides });
    expect(variantArrays.map((key) => human[key].length)).toEqual([3, 3, 3, 3]);
    expect(() => build('Evaluation', { overrides: { variant_ids: ['v-1', 'v-2'] } })).toThrow(
      /variant_ids 2, variant_names 1, variant_revision_ids 1, revisions 1/,
    );
  });
});

function catchFactoryError(make: () => unknown): FactoryError {
  try {
    make();
  } catch (error) {
    if (error instanceof FactoryError) return error;
    throw error;
  }
  throw new Error('expected a FactoryError');
}

describe('the generators below build() read states as build() does', () => {
  const request = { app_id: 'a', testset_id: 't', variant_ids: ['v1', 'v2'], evaluators_configs: ['c1'] };
  // Typed as states; a JavaScript caller passes any string.
  const loosely = (state: string) => ({ state }) as unknown as { state: EvaluationState };

  it("turns 'failed' into EVALUATION_FAILED: generators.Evaluation, generators.Result, evaluationsForRequest", () => {
    expect(generators.Evaluation(1, loosely('failed')).status.value).toBe('EVALUATION_FAILED');
    expect(generators.Result(1, { type: 'status', ...loosely('finished') }).value).toBe('EVALUATION_FINISHED');
    const created = evaluationsForRequest(1, request, loosely('Failed'));
    expect(created.map((evaluation) => evaluation.status.value)).toEqual(['EVALUATION_FAILED', 'EVALUATION_FAILED']);
  });

  it('refuses an unknown state with a FactoryError naming the caller and what is accepted', () => {
    expect(() => generators.Evaluation(1, loosely('DONE'))).toThrow(FactoryError);
    expect(() => generators.Evaluation(1, loosely('DONE'))).toThrow(
      /^generators\.Evaluation: state cannot be "DONE"; accepted: /,
    );
    expect(() => evaluationsForRequest(1, request, loosely('DONE'))).toThrow(
      /^evaluationsForRequest: state cannot be "DONE"/,
    );
    expect(() => generators.Evaluation(1, loosely('finised'))).toThrow(/"finised"; did you mean finished\?/);
  });
});

describe('the domain names the factories and the judge share', () => {
  it('lifecycleStates points at where each record keeps the state it was built in, as coverage reads it', () => {
    const evaluation = build('Evaluation', { state: 'aggregation_failed' });
    expect(valueAt(evaluation, lifecycleStates.Evaluation.pointer)).toBe('EVALUATION_AGGREGATION_FAILED');
    const human = build('HumanEvaluation', { state: 'started' });
    expect(valueAt(human, lifecycleStates.HumanEvaluation.pointer)).toBe('EVALUATION_STARTED');
  });

  it("variantArrays names each record's string arrays, in schema order", () => {
    for (const name of ['Evaluation', 'HumanEvaluation'] as const) {
      const arrays = Object.values(variantArrays[name]);
      const properties = schemas[name].properties as Record<string, { type?: string; items?: { type?: string } }>;
      const stringArrays = Object.keys(properties).filter(
        (key) => properties[key]?.type === 'array' && properties[key].items?.type === 'string',
      );
      expect(arrays, name).toEqual(stringArrays);
      const record: Record<string, unknown> = build(name, { seed: 4 });
      const lengths = arrays.map((array) => (Array.isArray(record[array]) ? record[array].length : undefined));
      expect(new Set(lengths), name).toEqual(new Set([lengths[0]]));
      expect(lengths[0], name).toBeGreaterThan(0);
    }
  });
});
