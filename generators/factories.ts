import { isJsonObject } from '../schemas/json-object.js';
import { formatIssue, validate } from '../schemas/validators/index.js';
import type { ResourceName } from '../schemas/index.js';
import {
  batchSeed,
  generators,
  type GenerateOptions,
  type Instances,
  type ResourceGenerator,
  type Seed,
} from './index.js';
import { isEvaluationState, type EvaluationState } from './vocabulary.js';

/**
 * What an override may hold: any part of an object, at any depth; an array is given whole, as it replaces the one
 * made.
 */
export type DeepPartial<T> = T extends readonly unknown[]
  ? T
  : T extends object
    ? { [K in keyof T]?: DeepPartial<T[K]> }
    : T;

export type BuildOptions<N extends ResourceName> = GenerateOptions<N> & {
  /** Any number or string; the same seed and options give the same instance. Default 1. */
  seed?: Seed;
  /**
   * The lifecycle state (HumanEvaluation.status, Evaluation.status.value), with the rest of the record coherent with
   * it.
   */
  state?: EvaluationState;
  /** Fields to set, merged deeply into the instance made; the result must still satisfy the schema. */
  overrides?: DeepPartial<Instances[N]>;
};

/** An override that breaks the schema; the message names each field at fault and the rule it breaks. */
export class FactoryError extends Error {}

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
  HumanEvaluation: (state, overrides) => ({
    ...(typeof overrides.id === 'string' && { id: overrides.id }),
    ...((state ?? overrides.status) !== undefined && { status: (state ?? overrides.status) as string }),
  }),
  Evaluation: (state, overrides) => {
    const value = isJsonObject(overrides.status) ? overrides.status.value : undefined;
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

/**
 * One instance of a resource, in the style of fishery or factory_bot: generated from the seed (valid and coherent),
 * the overrides merged in, then validated. Throws a FactoryError naming the field and the rule an override breaks.
 *
 *   build('Evaluation', { seed: 7, state: 'EVALUATION_FAILED', overrides: { app_id: 'my-app' } })
 */
export function build<N extends ResourceName>(name: N, options: BuildOptions<N> = {} as BuildOptions<N>): Instances[N] {
  const { seed = 1, state, overrides, ...generatorOptions } = options;
  const coherent = coherentOptions[name]?.(state, (overrides ?? {}) as Overrides) ?? {};
  const generate = generators[name] as ResourceGenerator<N>;
  const instance = merge(generate(seed, { ...coherent, ...generatorOptions } as GenerateOptions<N>), overrides);
  const result = validate(name, instance);
  if (!result.valid) {
    const problems = result.issues.map((issue) => `${formatIssue(issue)} (rule: ${issue.keyword})`);
    throw new FactoryError(`build('${name}'): the overrides break the schema: ${problems.join('; ')}`);
  }
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
