import { didYouMean } from '../http/spelling.js';
import { isJsonObject } from '../schemas/json-object.js';
import { formatIssue, validate } from '../schemas/validators/index.js';
import { valueAt } from '../schemas/validators/json-pointer.js';
import {
  dereference,
  isResourceName,
  resourceNames,
  schemaFiles,
  schemas,
  type JsonSchema,
  type ResourceName,
} from '../schemas/index.js';
import { propertiesOf } from '../schemas/walk.js';
import {
  batchSeed,
  generators,
  type GenerateOptions,
  type Instances,
  type ResourceGenerator,
  type ResourceOptions,
  type Seed,
} from './index.js';
import { FactoryError, show, stateFrom } from './factory-error.js';
import {
  evaluationTypes,
  isEvaluationState,
  lifecycleStates,
  type EvaluationState,
  type EvaluationStateName,
} from './vocabulary.js';
import { variantArrayNames, variantArrays } from '../api/variant-arrays.js';

export { FactoryError } from './factory-error.js';

/** An object's declared keys, without its index signature: what an override may name. */
type DeclaredKeys<T> = keyof { [K in keyof T as string extends K ? never : number extends K ? never : K]: true };

/**
 * What an override may hold: any part of an object, at any depth, by the keys its schema declares, so a misspelt key
 * fails to compile (the resources themselves still accept the extra fields the spec allows); an array is given
 * whole, as it replaces the one made.
 */
export type DeepPartial<T> = T extends readonly unknown[]
  ? T
  : T extends object
    ? { [K in DeclaredKeys<T>]?: DeepPartial<T[K & keyof T]> }
    : T;

export type BuildOptions<N extends ResourceName> = Omit<GenerateOptions<N>, 'state'> & {
  /** Any number or string; the same seed and options give the same instance. Default 1. */
  seed?: Seed;
  /**
   * The lifecycle state (HumanEvaluation.status, Evaluation.status.value), with the rest of the record coherent with
   * it: in full or short (`'failed'`), any case, as the mock's `Prefer: state=` reads it.
   */
  state?: EvaluationStateName;
  /** Fields to set, merged deeply into the instance made; the result must still satisfy the schema. */
  overrides?: DeepPartial<Instances[N]>;
};

/** Every name of an options type, as a value: a name added to or taken from the type is a compile error here. */
type OptionNames<T> = { readonly [K in keyof Required<T>]: true };

/** build()'s own options and each generator's, for refusing a JavaScript caller's misspelt one (`overides`). */
const buildOptionNames: OptionNames<{ seed: 0; state: 0; overrides: 0; profile: 0 }> = {
  seed: true,
  state: true,
  overrides: true,
  profile: true,
};
const generatorOptionNames: { [N in ResourceName]: OptionNames<ResourceOptions[N]> } = {
  HumanEvaluation: { id: true, idStyle: true, status: true, notAfter: true, period: true },
  Evaluation: {
    state: true,
    appId: true,
    testsetId: true,
    variantId: true,
    variantIndex: true,
    evaluatorConfigIds: true,
    run: true,
  },
  Result: { type: true, state: true, evaluatorKey: true, value: true, errorMessage: true },
  Error: { message: true },
  AggregatedResult: { evaluatorConfig: true, evaluatorConfigId: true, evaluatorKey: true, failed: true, before: true },
  EvaluatorConfig: { id: true, evaluatorKey: true, before: true },
  UndocumentedEvaluatorConfig: {},
  CreateEvaluationRequest: {},
  RateLimit: { defaults: true },
};

/**
 * Refuses an option build() does not take, as TypeScript does: a JavaScript caller's `overides` would otherwise be
 * ignored, silently, and the instance built without the fields it was meant to set.
 */
function checkOptionNames(name: ResourceName, options: object): void {
  const known = [...new Set([...Object.keys(buildOptionNames), ...Object.keys(generatorOptionNames[name])])];
  const unknown = Object.keys(options).find((key) => !known.includes(key));
  if (unknown === undefined) return;
  throw new FactoryError(
    'options',
    unknown,
    known.join(', '),
    `build('${name}'): no option ${show(unknown)}${didYouMean(unknown, known)}`,
  );
}

/** Objects merge key by key; arrays and scalars replace. Copies, so neither side is changed. */
function merge(base: unknown, override: unknown): unknown {
  if (!isJsonObject(base) || !isJsonObject(override)) return override === undefined ? base : structuredClone(override);
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(override)) merged[key] = merge(base[key], value);
  return merged;
}

type Overrides = Record<string, unknown>;

/**
 * Generator options that an override or a state stands for, so what the generator draws around them agrees with
 * them: a failed state gets its Error, an id its timestamps, an app its Evaluations.
 */
const coherentOptions: {
  [N in ResourceName]?: (state: EvaluationState | undefined, overrides: Overrides) => GenerateOptions<N>;
} = {
  HumanEvaluation: (state, overrides) => {
    const status = state ?? valueAt(overrides, lifecycleStates.HumanEvaluation.pointer);
    return {
      ...(typeof overrides.id === 'string' && { id: overrides.id }),
      ...(status !== undefined && { status: status as string }),
    };
  },
  Evaluation: (state, overrides) => {
    const value = valueAt(overrides, lifecycleStates.Evaluation.pointer);
    const drawn = state ?? (typeof value === 'string' && isEvaluationState(value) ? value : undefined);
    const variants = overrides.variant_ids;
    return {
      ...(drawn && { state: drawn }),
      ...(typeof overrides.app_id === 'string' && { appId: overrides.app_id }),
      ...(typeof overrides.testset_id === 'string' && { testsetId: overrides.testset_id }),
      ...(Array.isArray(variants) && typeof variants[0] === 'string' && { variantId: variants[0] }),
    };
  },
};

/** The names of a record's arrays that describe one variant per entry, in order: they always have one length. */
function variantArraysOf(name: ResourceName): readonly string[] | undefined {
  const names = variantArrayNames(name);
  return names.length > 0 ? names : undefined;
}

/** How many draws build() tries for a HumanEvaluation whose evaluation type compares as many variants as given. */
const typeDraws = 32;

/**
 * A HumanEvaluation drawn for a `variant_ids` override of 1 or 2 ids, whose siblings are not given: the record of the
 * first seed derived from `seed` whose evaluation type compares that many variants (single_model_test 1,
 * human_a_b_testing 2), so names, revision ids and revisions come from the generator, coherent with them.
 */
function drawForVariantCount(
  generate: (seed: Seed) => unknown,
  seed: Seed,
  count: number,
  overrides: Overrides,
): unknown {
  const first = generate(seed);
  const siblingsGiven = Object.values(variantArrays.HumanEvaluation)
    .slice(1)
    .some((key) => key in overrides);
  if (siblingsGiven || !Object.values(evaluationTypes).some((compared) => compared === count)) return first;
  for (let draw = 0; draw <= typeDraws; draw++) {
    const record = draw === 0 ? first : generate(batchSeed(seed, draw));
    if (isJsonObject(record) && Array.isArray(record.variant_ids) && record.variant_ids.length === count) return record;
  }
  return first;
}

/** Refuses variant arrays of different lengths, naming each with its length. */
function checkVariantArrays(name: ResourceName, instance: unknown, overrides: Overrides): void {
  const keys = variantArraysOf(name);
  if (!keys || !isJsonObject(instance)) return;
  const lengths = keys.map((key) => {
    const value = instance[key];
    return Array.isArray(value) ? value.length : undefined;
  });
  if (lengths.every((length) => length === lengths[0])) return;
  const given = keys.find((key) => key in overrides) ?? keys[0]!;
  const counts = keys.map((key, index) => `${key} ${String(lengths[index])}`).join(', ');
  throw new FactoryError(
    given,
    overrides[given],
    `${keys.join(', ')} of one length (one entry per variant): override all ${keys.length}, or give ` +
      (name === 'HumanEvaluation' ? '1 or 2 variant_ids and the others follow' : 'one variant_id'),
    `build('${name}'): the variant arrays differ in length (${counts})`,
  );
}

/** How many fields a refusal lists as accepted: a resource's own, at most. */
const listedFields = 20;

/**
 * Refuses an override key its object's schema does not declare, as TypeScript does (DeepPartial): a JavaScript
 * caller's `testset_nmae` would otherwise be kept as an extra field, silently. Where the schema declares no properties
 * (an open map: `settings_values`, a Result's `value`) any key is the data's; the walk ends there, so it is as deep as
 * the schema, whatever the override's depth.
 */
function checkDeclaredKeys(name: ResourceName, overrides: unknown, schema: JsonSchema, pointer: string): void {
  if (!isJsonObject(overrides)) return;
  const declared = propertiesOf(dereference(schema));
  if (!declared) return;
  const fields = Object.keys(declared);
  for (const [key, value] of Object.entries(overrides)) {
    const at = `${pointer}/${key}`;
    if (!Object.hasOwn(declared, key)) {
      const accepted = fields.slice(0, listedFields).join(', ');
      const problem = `build('${name}'): the overrides name no field ${show(at)} of ${name}${didYouMean(key, fields)}`;
      throw new FactoryError(at, value, accepted, problem);
    }
    checkDeclaredKeys(name, value, declared[key] as JsonSchema, at);
  }
}

/**
 * One instance of a resource, in the style of fishery or factory_bot: generated from the seed (valid and coherent),
 * the overrides merged in, then validated. Throws a FactoryError naming the field, the value and what is accepted:
 * an unknown resource or state, an override that breaks the schema, variant arrays of different lengths.
 *
 *   build('Evaluation', { seed: 7, state: 'failed', overrides: { app_id: 'my-app' } })
 */
export function build<N extends ResourceName>(name: N, options: BuildOptions<N> = {} as BuildOptions<N>): Instances[N] {
  // A JavaScript caller (or a cast) can pass any string: refuse it in words rather than with a TypeError.
  if (!isResourceName(name))
    throw new FactoryError(
      'name',
      name,
      resourceNames.join(', '),
      `build(${show(name)}): unknown resource${typeof name === 'string' ? didYouMean(name, resourceNames) : ''}`,
    );
  checkOptionNames(name, options);
  const { seed = 1, state: stateName, overrides, ...generatorOptions } = options;
  const given = (overrides ?? {}) as Overrides;
  checkDeclaredKeys(name, given, schemas[name], '');
  const state = stateFrom(`build('${name}')`, stateName);
  const coherent = coherentOptions[name]?.(state, given) ?? {};
  const generator = generators[name] as ResourceGenerator<N>;
  const generate = (from: Seed) => generator(from, { ...coherent, ...generatorOptions } as GenerateOptions<N>);
  const variants = given.variant_ids;
  const made =
    name === 'HumanEvaluation' && Array.isArray(variants)
      ? drawForVariantCount(generate, seed, variants.length, given)
      : generate(seed);
  const instance = merge(made, overrides);
  const result = validate(name, instance);
  if (!result.valid) {
    const problems = result.issues.map((issue) => `${formatIssue(issue)} (rule: ${issue.keyword})`);
    const [first] = result.issues;
    throw new FactoryError(
      first?.pointer || '(root)',
      valueAt(instance, first?.pointer ?? ''),
      `what schemas/${schemaFiles[name]} allows`,
      `build('${name}'): the overrides break the schema: ${problems.join('; ')}`,
    );
  }
  checkVariantArrays(name, instance, given);
  return instance as Instances[N];
}

/**
 * `count` instances, each from its own seed derived from `seed` (the same batch every time), the same overrides on
 * each.
 */
export function buildMany<N extends ResourceName>(
  name: N,
  count: number,
  options: BuildOptions<N> = {} as BuildOptions<N>,
): Array<Instances[N]> {
  return Array.from({ length: count }, (_, index) =>
    build(name, { ...options, seed: batchSeed(options.seed ?? 1, index) }),
  );
}
