import { describe, expect, it } from 'vitest';
import {
  createGenerators,
  evaluationsForRequest,
  generateBatch,
  generators,
  profiles,
  type Instances,
} from '../../generators/index.js';
import {
  evaluationStates,
  evaluationTypes,
  evaluatorSettings,
  failedStates,
  humanEvaluationStates,
  type EvaluatorKey,
} from '../../generators/vocabulary.js';
import { declaredProperties, requiredProperties, resourceNames, type ResourceName } from '../../schemas/index.js';
import type {
  AggregatedResult,
  Evaluation,
  EvaluatorConfig,
  HumanEvaluation,
  Result,
} from '../../schemas/types/resources.js';
import { formatIssue, isDocumentedEvaluatorConfig, validate } from '../../schemas/validators/index.js';
import { apartFrom, evaluationStateFields } from '../mock/helpers.js';
import { runs } from '../properties/runs.js';

/** Instances per resource, spread over the profiles; `npm run test:properties` draws ten times as many. */
const PER_RESOURCE = runs(2_000).numRuns as number;
/** Instances per profile the coherence checks read; ten times as many in `npm run test:properties`. */
const PER_PROFILE = runs(200).numRuns as number;

describe('generators are always valid', () => {
  it.each(resourceNames)(`%s: ${PER_RESOURCE} instances across all profiles pass the validator`, (name) => {
    const perProfile = PER_RESOURCE / profiles.length;
    let checked = 0;
    for (const profile of profiles) {
      for (const instance of generateBatch(name, `property-${profile}`, perProfile, { profile })) {
        const { valid, issues } = validate(name, instance);
        if (!valid)
          expect.fail(`${name}/${profile}: ${issues.map(formatIssue).join('; ')} in ${JSON.stringify(instance)}`);
        checked++;
      }
    }
    expect(checked).toBe(PER_RESOURCE);
  });
});

describe('generators are deterministic', () => {
  it.each(resourceNames)('%s: the same seed gives byte-identical output, another seed another output', (name) => {
    const first = JSON.stringify([...generateBatch(name, 7, 50)]);
    expect(JSON.stringify([...generateBatch(name, 7, 50)])).toBe(first);
    expect(JSON.stringify([...generateBatch(name, 7, 50, undefined, createGenerators())])).toBe(first);
    if (name !== 'UndocumentedEvaluatorConfig') expect(JSON.stringify([...generateBatch(name, 8, 50)])).not.toBe(first);
  });

  it('two generator sets running interleaved do not disturb each other', () => {
    const alone = [1, 2, 3].map((seed) => JSON.stringify(createGenerators().Evaluation(seed)));
    const a = createGenerators();
    const b = createGenerators();
    const interleaved = [1, 2, 3].map((seed) => {
      b.HumanEvaluation(seed * 13);
      const out = JSON.stringify(a.Evaluation(seed));
      b.CreateEvaluationRequest(seed);
      return out;
    });
    expect(interleaved).toEqual(alone);
  });

  it('does not read the clock or Math.random', () => {
    const random = Math.random;
    const now = Date.now;
    Math.random = () => {
      throw new Error('Math.random used');
    };
    Date.now = () => {
      throw new Error('Date.now used');
    };
    try {
      for (const name of resourceNames) for (const profile of profiles) generators[name](1, { profile });
    } finally {
      Math.random = random;
      Date.now = now;
    }
  });

  it('string seeds work and differ from each other', () => {
    expect(generators.HumanEvaluation('alpha')).toEqual(generators.HumanEvaluation('alpha'));
    expect(generators.HumanEvaluation('alpha')).not.toEqual(generators.HumanEvaluation('beta'));
  });
});

const instant = (value: string) => Date.parse(value);

/** A record's four variant arrays, one entry per variant each (a HumanEvaluation spells `variants_revision_ids`). */
function variantArrays(record: HumanEvaluation | Evaluation): string[][] {
  const revisionIds =
    'variants_revision_ids' in record
      ? (record as HumanEvaluation).variants_revision_ids
      : (record as Evaluation).variant_revision_ids;
  return [record.variant_ids, record.variant_names, revisionIds, record.revisions];
}

/**
 * The rules a sample breaks, each named with the record that breaks it: thousands of records are checked, and one
 * assertion over the list (rather than one per rule and record) shows every broken one at once.
 */
type Problems = string[];

function resultProblems(result: Result): Problems {
  const problems: Problems = [];
  const broken = (rule: string) => problems.push(`${rule}: ${JSON.stringify(result)}`);
  switch (result.type) {
    case 'number':
    case 'latency':
    case 'cost':
      if (result.value !== null && typeof result.value !== 'number') broken('a figure is a number or null');
      break;
    case 'bool':
      if (typeof result.value !== 'boolean') broken('a bool is a boolean');
      break;
    case 'text':
      if (typeof result.value !== 'string') broken('a text is a string');
      break;
    case 'error':
      if (typeof result.error?.message !== 'string') broken('an error carries a message');
      if ((result.value ?? null) !== null) broken('an error has no value');
      break;
    case 'status':
      if (!evaluationStates.includes(result.value as never)) broken('a status is a state');
      if ((result.error !== undefined) !== failedStates.has(result.value as never))
        broken('a status carries an Error exactly in failed states');
      break;
    default:
      broken(`unexpected Result type ${result.type}`);
  }
  if (result.type !== 'error' && result.type !== 'status' && result.error !== undefined)
    broken('only an error or a status carries an Error');
  return problems;
}

function settingsProblems(config: EvaluatorConfig): Problems {
  const expected = evaluatorSettings[config.evaluator_key as EvaluatorKey];
  if (expected === undefined) return [`an unknown evaluator_key: ${config.evaluator_key}`];
  const keys = Object.keys(config.settings_values ?? {}).sort();
  return config.settings_values && keys.join() !== [...expected].sort().join()
    ? [`settings_values of ${config.evaluator_key} hold ${keys.join()}`]
    : [];
}

/** Whether a moment is not at or before another: a date that does not parse is neither. */
const outOfOrder = (earlier: string, then: string) => !(instant(earlier) <= instant(then));

describe('generators are coherent across fields', () => {
  const sample = <N extends ResourceName>(name: N) =>
    profiles.flatMap((profile) => [...generateBatch(name, `coherence-${profile}`, PER_PROFILE, { profile })]) as Array<
      Instances[N]
    >;

  it('HumanEvaluation: variant arrays of one length, type matches the variant count, created_at <= updated_at', () => {
    const problems = sample('HumanEvaluation').flatMap((record) => {
      const broken: Problems = [];
      if (new Set(variantArrays(record).map((array) => array.length)).size !== 1) broken.push('variant arrays differ');
      if (record.variant_ids.length !== evaluationTypes[record.evaluation_type as keyof typeof evaluationTypes])
        broken.push('the variant count does not fit the type');
      if (outOfOrder(record.created_at, record.updated_at)) broken.push('created after updated');
      if (!record.revisions.every((revision) => /^\d+$/.test(revision))) broken.push('a revision is not a number');
      return broken.map((rule) => `${rule}: ${record.id}`);
    });
    expect(problems).toEqual([]);
  });

  it(
    'Evaluation: status is a status Result with an Error exactly in failed states; results fit their types; ' +
      'figures fit the state',
    () => {
      const problems = sample('Evaluation').flatMap((evaluation) => {
        const broken: Problems = [];
        if (evaluation.status.type !== 'status') broken.push('the status is not a status Result');
        broken.push(...resultProblems(evaluation.status));
        if (!variantArrays(evaluation).every((variants) => variants.length === 1)) broken.push('not one variant');
        if (outOfOrder(evaluation.created_at, evaluation.updated_at)) broken.push('created after updated');
        const aggregated = evaluation.aggregated_results as AggregatedResult[];
        if (evaluation.status.value === 'EVALUATION_INITIALIZED') {
          if (aggregated.length > 0) broken.push('results before it started');
          if (evaluation.created_at !== evaluation.updated_at) broken.push('updated before it started');
        }
        for (const { result, evaluator_config } of aggregated) {
          if (result.type !== 'number' && result.type !== 'error') broken.push(`an aggregated ${result.type} Result`);
          broken.push(...resultProblems(result));
          if (!isDocumentedEvaluatorConfig(evaluator_config)) broken.push('an undocumented evaluator config');
          const config = evaluator_config as EvaluatorConfig;
          broken.push(...settingsProblems(config));
          if (outOfOrder(config.updated_at, evaluation.created_at)) broken.push('a config updated after the run');
        }
        for (const figure of [evaluation.average_cost, evaluation.total_cost, evaluation.average_latency])
          if (figure) broken.push(...resultProblems(figure));
        const { average_cost: average, total_cost: total } = evaluation;
        if (average?.type === 'cost' && total?.type === 'cost') {
          const [sum, mean] = [total.value, average.value];
          if (typeof sum !== 'number' || typeof mean !== 'number' || sum < mean)
            broken.push('a total under the average');
        }
        return broken.map((rule) => `${rule} (${evaluation.id})`);
      });
      expect(problems).toEqual([]);
    },
  );

  it('Result: the value fits the type, the Error is present exactly where the type reports a failure', () => {
    expect(sample('Result').flatMap(resultProblems)).toEqual([]);
  });

  it('EvaluatorConfig: settings_values hold exactly the keys of its evaluator_key', () => {
    const problems = sample('EvaluatorConfig').flatMap((config) => [
      ...settingsProblems(config),
      ...(outOfOrder(config.created_at, config.updated_at) ? [`created after updated: ${config.id}`] : []),
    ]);
    expect(problems).toEqual([]);
  });

  it('UndocumentedEvaluatorConfig: never matches the documented alternative', () => {
    for (const config of sample('UndocumentedEvaluatorConfig')) expect(isDocumentedEvaluatorConfig(config)).toBe(false);
  });

  it('Evaluation honours the request it answers', () => {
    const evaluation = generators.Evaluation(3, {
      appId: 'app-1',
      testsetId: 'testset-1',
      variantId: 'variant-1',
      evaluatorConfigIds: ['config-a', 'config-b'],
      state: 'EVALUATION_FINISHED',
      profile: 'full',
    });
    expect(evaluation).toMatchObject({ app_id: 'app-1', testset_id: 'testset-1', variant_ids: ['variant-1'] });
    expect(
      (evaluation.aggregated_results as AggregatedResult[]).map((a) => (a.evaluator_config as EvaluatorConfig).id),
    ).toEqual(['config-a', 'config-b']);
    expect(evaluation.status).toEqual({ type: 'status', value: 'EVALUATION_FINISHED' });
  });

  it.each(evaluationStates)('Evaluation in state %s is valid and reports it', (state) => {
    for (const profile of profiles) {
      const evaluation = generators.Evaluation(state, { state, profile });
      expect(validate('Evaluation', evaluation).valid).toBe(true);
      expect(evaluation.status.value).toBe(state);
      expect(evaluation.status.error !== undefined).toBe(failedStates.has(state));
    }
  });

  it('HumanEvaluation answers with the id asked for', () => {
    expect(generators.HumanEvaluation(1, { id: 'the-id' }).id).toBe('the-id');
  });
});

describe('generators are realistic', () => {
  const records = [...generateBatch('HumanEvaluation', 'realism', 300)];

  it('use the service vocabulary and plausible ids', () => {
    const id = /^([0-9a-f]{24}|[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12})$/;
    const types = ['human_a_b_testing', 'single_model_test'];
    const statuses = ['EVALUATION_INITIALIZED', 'EVALUATION_STARTED', 'EVALUATION_FINISHED'];
    expect(records.map((record) => record.evaluation_type).filter((type) => !types.includes(type))).toEqual([]);
    expect(records.map((record) => record.status).filter((status) => !statuses.includes(status))).toEqual([]);
    const ids = records.flatMap((record) => [record.id, record.app_id, record.user_id, ...record.variant_ids]);
    expect(ids.filter((value) => !id.test(value))).toEqual([]);
    const styles = new Set(records.map((record) => record.id.length));
    expect(styles).toEqual(new Set([24, 36]));
  });

  it('put timestamps in a recent window, with microseconds as the service writes them', () => {
    for (const record of records) {
      expect(record.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}(Z|\+00:00)$/);
      expect(instant(record.created_at)).toBeGreaterThanOrEqual(Date.UTC(2024, 0, 1));
      expect(instant(record.updated_at)).toBeLessThanOrEqual(Date.UTC(2026, 10, 1));
    }
  });

  it('put costs in USD and latencies in seconds at plausible scales', () => {
    for (const evaluation of generateBatch('Evaluation', 'figures', 300, {
      state: 'EVALUATION_FINISHED',
      profile: 'full',
    })) {
      expect(evaluation.average_cost).toEqual({ type: 'cost', value: expect.any(Number) });
      expect(evaluation.average_cost!.value as number).toBeLessThan(1);
      expect(evaluation.average_latency!.value as number).toBeGreaterThan(0);
      expect(evaluation.average_latency!.value as number).toBeLessThan(60);
    }
  });
});

describe('profiles', () => {
  const optionalOf = (name: ResourceName) =>
    declaredProperties(name).filter((field) => !requiredProperties(name).includes(field));

  it('minimal sends required fields only', () => {
    for (const name of [
      'HumanEvaluation',
      'Evaluation',
      'EvaluatorConfig',
      'CreateEvaluationRequest',
      'Error',
    ] as const) {
      const sent = [...generateBatch(name, 'minimal', 200, { profile: 'minimal' })].flatMap((instance) =>
        optionalOf(name).filter((field) => field in instance),
      );
      expect(sent, name).toEqual([]);
    }
  });

  it('full sends every optional field', () => {
    for (const name of ['Evaluation', 'EvaluatorConfig', 'CreateEvaluationRequest', 'Error'] as const) {
      const left = [...generateBatch(name, 'full', 200, { profile: 'full' })].flatMap((instance) =>
        optionalOf(name).filter((field) => !(field in instance)),
      );
      expect(left, name).toEqual([]);
    }
  });

  it('mixed sends some optional fields and not others', () => {
    const seen = new Set<string>();
    const missed = new Set<string>();
    for (const request of generateBatch('CreateEvaluationRequest', 'mixed', 200)) {
      for (const field of optionalOf('CreateEvaluationRequest')) (field in request ? seen : missed).add(field);
    }
    expect([...seen].sort()).toEqual(optionalOf('CreateEvaluationRequest').sort());
    expect([...missed].sort()).toEqual(optionalOf('CreateEvaluationRequest').sort());
  });

  it('edge shows empty arrays, unicode, very long strings, error Results and boundary integers', () => {
    const humans = JSON.stringify([...generateBatch('HumanEvaluation', 'edge', 300, { profile: 'edge' })]);
    const evaluations = [...generateBatch('Evaluation', 'edge', 300, { profile: 'edge' })];
    const requests = [...generateBatch('CreateEvaluationRequest', 'edge', 300, { profile: 'edge' })];
    expect(evaluations.some((e) => (e.aggregated_results as unknown[]).length === 0)).toBe(true);
    expect(humans).toContain('"user_username":""');
    expect(humans).toMatch(/[\u4e00-\u9fff]/);
    expect(humans).toMatch(/"[^"]{4000,}"/);
    expect(evaluations.some((e) => e.status.error !== undefined)).toBe(true);
    expect(
      evaluations.some((e) => (e.aggregated_results as AggregatedResult[]).some((a) => a.result.type === 'error')),
    ).toBe(true);
    const integers = requests.flatMap((request) => Object.values(request.rate_limit));
    expect(integers).toContain(Number.MAX_SAFE_INTEGER);
    expect(integers).toContain(0);
    expect(requests.some((request) => request.variant_ids.length === 0)).toBe(true);
  });

  it(
    'edge stays within what the domain makes possible: an A/B test compares 2 variants, a single-model test 1, ' +
      'an Evaluation runs 1',
    () => {
      const counts = new Map<string, Set<number>>();
      for (const record of generateBatch('HumanEvaluation', 'edge-domain', 1000, { profile: 'edge' })) {
        for (const variants of variantArrays(record)) {
          counts.set(record.evaluation_type, (counts.get(record.evaluation_type) ?? new Set()).add(variants.length));
        }
      }
      expect(Object.fromEntries([...counts].map(([type, lengths]) => [type, [...lengths]]))).toEqual({
        human_a_b_testing: [2],
        single_model_test: [1],
      });
      const lengths = new Set<number>();
      for (const evaluation of generateBatch('Evaluation', 'edge-domain', 1000, { profile: 'edge' })) {
        for (const variants of variantArrays(evaluation)) lengths.add(variants.length);
      }
      expect([...lengths]).toEqual([1]);
    },
  );
});

describe('a state re-seeds nothing but what depends on it', () => {
  it.each(profiles)(
    'HumanEvaluation (%s): one id and seed give one record in every status, bar status and updated_at',
    (profile) => {
      for (let seed = 0; seed < 200; seed++) {
        const [drawn, ...stated] = [undefined, ...humanEvaluationStates].map((status) =>
          generators.HumanEvaluation(seed, { profile, id: 'the-id', status }),
        );
        for (const record of stated)
          expect(apartFrom(record!, ['status', 'updated_at'])).toEqual(apartFrom(drawn!, ['status', 'updated_at']));
        const [initialized, ...later] = stated;
        expect(initialized!.updated_at).toBe(initialized!.created_at);
        expect(new Set(later.map((record) => record!.updated_at)).size).toBe(1);
      }
    },
  );

  it.each(profiles)(
    'Evaluation (%s): one seed gives one evaluation in every state, bar what the state decides',
    (profile) => {
      for (let seed = 0; seed < 200; seed++) {
        const [drawn, ...stated] = [undefined, ...evaluationStates].map((state) =>
          generators.Evaluation(seed, { profile, state }),
        );
        for (const evaluation of stated)
          expect(apartFrom(evaluation!, evaluationStateFields)).toEqual(apartFrom(drawn!, evaluationStateFields));
        expect(new Set(stated.slice(1).map((evaluation) => evaluation!.updated_at)).size).toBe(1);
      }
    },
  );

  it.each(profiles)(
    'evaluationsForRequest (%s): one request and seed give the same Evaluations in every state',
    (profile) => {
      const request = {
        app_id: 'app',
        testset_id: 'testset',
        variant_ids: ['v1', 'v2', 'v3'],
        evaluators_configs: ['c1', 'c2'],
      };
      for (let seed = 0; seed < 50; seed++) {
        const answers = [undefined, ...evaluationStates].map((state) =>
          evaluationsForRequest(seed, request, { profile, state }),
        );
        const expected = answers[0]!.map((evaluation) => apartFrom(evaluation, evaluationStateFields));
        for (const answer of answers)
          expect(answer.map((evaluation) => apartFrom(evaluation, evaluationStateFields))).toEqual(expected);
      }
    },
  );

  it('the state still decides what depends on it', () => {
    const initialized = generators.Evaluation(5, {
      state: 'EVALUATION_INITIALIZED',
      profile: 'full',
      evaluatorConfigIds: ['c1'],
    });
    const finished = generators.Evaluation(5, {
      state: 'EVALUATION_FINISHED',
      profile: 'full',
      evaluatorConfigIds: ['c1'],
    });
    expect(initialized.aggregated_results).toEqual([]);
    expect(finished.aggregated_results).toHaveLength(1);
    expect(finished.average_cost?.type).toBe('cost');
    expect(initialized.average_cost?.type).toBe('error');
    expect(initialized.updated_at).toBe(initialized.created_at);
    expect(finished.updated_at).not.toBe(finished.created_at);
  });
});

describe('evaluationsForRequest', () => {
  const request = generators.CreateEvaluationRequest('run', { profile: 'full' });
  request.variant_ids = ['variant-a', 'variant-b', 'variant-c'];
  request.evaluators_configs = ['config-1', 'config-2'];

  it.each(evaluationStates)('answers one valid Evaluation per variant, sharing what one run shares (%s)', (state) => {
    const evaluations = evaluationsForRequest('seed', request, { state, profile: 'full' });
    expect(evaluations.map((evaluation) => evaluation.variant_ids)).toEqual([
      ['variant-a'],
      ['variant-b'],
      ['variant-c'],
    ]);
    for (const evaluation of evaluations) {
      expect(validate('Evaluation', evaluation).valid).toBe(true);
      expect(evaluation).toMatchObject({
        app_id: request.app_id,
        testset_id: request.testset_id,
        status: { type: 'status', value: state },
      });
    }
    const shared = (evaluation: Evaluation) => [
      evaluation.created_at,
      evaluation.user_id,
      evaluation.user_username,
      evaluation.testset_name,
    ];
    expect(new Set(evaluations.map((evaluation) => JSON.stringify(shared(evaluation)))).size).toBe(1);
    const configs = evaluations.flatMap((evaluation) =>
      (evaluation.aggregated_results as AggregatedResult[]).map((a) => a.evaluator_config as EvaluatorConfig),
    );
    for (const id of request.evaluators_configs) {
      const same = configs.filter((config) => config.id === id);
      expect(same.length).toBe(state.startsWith('EVALUATION_FINISHED') ? 3 : 0);
      expect(new Set(same.map((config) => JSON.stringify(config))).size).toBeLessThanOrEqual(1);
    }
  });

  it('siblings agree on which optional fields they send, in 200 answers of every state and profile', () => {
    const optional = declaredProperties('Evaluation').filter(
      (field) => !requiredProperties('Evaluation').includes(field),
    );
    let mixedWithTestsetName = 0;
    const disagreeing: string[] = [];
    for (const profile of profiles) {
      for (const state of evaluationStates) {
        for (let seed = 0; seed < 200; seed++) {
          const presence = evaluationsForRequest(seed, request, { state, profile }).map((evaluation) =>
            optional.filter((field) => field in evaluation).join(),
          );
          if (new Set(presence).size !== 1)
            disagreeing.push(`${profile} ${state} seed ${seed}: ${presence.join(' | ')}`);
          if (profile === 'mixed' && presence[0]!.includes('testset_name')) mixedWithTestsetName++;
        }
      }
    }
    expect(disagreeing).toEqual([]);
    // The mixed profile sends the test set name in some runs and not in others: both cases are exercised.
    expect(mixedWithTestsetName).toBeGreaterThan(0);
    expect(mixedWithTestsetName).toBeLessThan(200 * evaluationStates.length);
  });

  it('names the same user, revisions and configs whatever the moment of the call; all of them older than it', () => {
    // What a call refers to existed before it: the caller, the variants' revisions, the evaluator configs. Two calls
    // of one request a second or a month apart refer to the same ones (a UI keying users or configs by id sees one).
    const referred = (evaluation: Evaluation) => ({
      user: [evaluation.user_id, evaluation.user_username],
      revisions: evaluation.variant_revision_ids,
      configs: (evaluation.aggregated_results as AggregatedResult[]).map((a) => a.evaluator_config),
    });
    const state = 'EVALUATION_FINISHED';
    const at = (iso: string) => evaluationsForRequest('seed', request, { state, createdAt: Date.parse(iso) * 1000 });
    const first = at('2026-12-01T09:00:00Z');
    for (const later of ['2026-12-01T09:00:01.5Z', '2026-12-02T09:00:00Z', '2027-01-01T09:00:00Z']) {
      const evaluations = at(later);
      expect(evaluations.map(referred)).toEqual(first.map(referred));
      expect(evaluations[0]?.created_at).not.toBe(first[0]?.created_at);
    }
    // A moment pinned early, before what the seed would refer to: everything referred to is still older than it.
    for (const evaluation of at('2025-01-02T00:00:00Z')) {
      const { configs } = referred(evaluation);
      for (const config of configs as EvaluatorConfig[]) {
        expect(Date.parse(config.updated_at)).toBeLessThan(Date.parse(evaluation.created_at));
      }
    }
  });

  it('is deterministic per seed', () => {
    expect(JSON.stringify(evaluationsForRequest(1, request))).toBe(JSON.stringify(evaluationsForRequest(1, request)));
    expect(JSON.stringify(evaluationsForRequest(1, request))).not.toBe(
      JSON.stringify(evaluationsForRequest(2, request)),
    );
  });
});
