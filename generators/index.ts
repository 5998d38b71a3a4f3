import type { CreateEvaluationRequest, Evaluation, Schemas } from '../schemas/types/resources.js';
import { resourceNames, type ResourceName } from '../schemas/index.js';
import { GenerationContext } from './context.js';
import { checkMoment } from './moments.js';
import type { Profile } from './profile.js';
import type { EvaluationState, IdStyle } from './vocabulary.js';
import { seedFrom } from './random.js';
import { stateFrom } from './factory-error.js';
import { aggregatedResultRecipe, type AggregatedResultOptions } from './recipes/aggregated-result.js';
import { createEvaluationRequestRecipe } from './recipes/create-evaluation-request.js';
import { errorRecipe, type ErrorOptions } from './recipes/error.js';
import { drawRun, evaluationRecipe, type EvaluationOptions, type EvaluationRun } from './recipes/evaluation.js';
import {
  evaluatorConfigRecipe,
  undocumentedEvaluatorConfigRecipe,
  type EvaluatorConfigOptions,
} from './recipes/evaluator-config.js';
import { humanEvaluationRecipe, type HumanEvaluationOptions } from './recipes/human-evaluation.js';
import { rateLimitRecipe, type RateLimitOptions } from './recipes/rate-limit.js';
import { resultRecipe, type ResultOptions } from './recipes/result.js';
import { compileRecipe, type BuildNested, type CompiledRecipe } from './walker.js';

export { profiles, isProfile, type Profile } from './profile.js';
export { seedFrom } from './random.js';
export type { EvaluationRun } from './recipes/evaluation.js';
export type {
  AggregatedResultOptions,
  ErrorOptions,
  EvaluationOptions,
  EvaluatorConfigOptions,
  HumanEvaluationOptions,
  RateLimitOptions,
  ResultOptions,
};

/** What each resource's generator returns: the resources' types (the error bodies have no generator). */
export type Instances = Pick<Schemas, ResourceName>;

/** The options each resource's generator takes, besides the profile. */
export interface ResourceOptions {
  HumanEvaluation: HumanEvaluationOptions;
  Evaluation: EvaluationOptions;
  Result: ResultOptions;
  Error: ErrorOptions;
  AggregatedResult: AggregatedResultOptions;
  EvaluatorConfig: EvaluatorConfigOptions;
  UndocumentedEvaluatorConfig: object;
  CreateEvaluationRequest: object;
  RateLimit: RateLimitOptions;
}

export type GenerateOptions<N extends ResourceName> = ResourceOptions[N] & { profile?: Profile };

/** A seed: any number or string; hashed with the resource's name, so neighbouring seeds give unrelated instances. */
export type Seed = number | string;

export type ResourceGenerator<N extends ResourceName> = (seed: Seed, options?: GenerateOptions<N>) => Instances[N];
export type Generators = { [N in ResourceName]: ResourceGenerator<N> };

const compiled: Record<ResourceName, CompiledRecipe> = {
  HumanEvaluation: compileRecipe('HumanEvaluation', humanEvaluationRecipe),
  Evaluation: compileRecipe('Evaluation', evaluationRecipe),
  Result: compileRecipe('Result', resultRecipe),
  Error: compileRecipe('Error', errorRecipe),
  AggregatedResult: compileRecipe('AggregatedResult', aggregatedResultRecipe),
  EvaluatorConfig: compileRecipe('EvaluatorConfig', evaluatorConfigRecipe),
  UndocumentedEvaluatorConfig: compileRecipe('UndocumentedEvaluatorConfig', undocumentedEvaluatorConfigRecipe),
  CreateEvaluationRequest: compileRecipe('CreateEvaluationRequest', createEvaluationRequestRecipe),
  RateLimit: compileRecipe('RateLimit', rateLimitRecipe),
};

const buildNested: BuildNested = (name, ctx, options = {}) => compiled[name](ctx, options, buildNested);

/**
 * A set of generators, one per resource, with a random source of its own. Each call reseeds it, so the output
 * is a function of (seed, options) alone: byte-identical on any day and machine, whatever ran before.
 */
export function createGenerators(): Generators {
  const ctx = new GenerationContext();
  const entries = resourceNames.map((name) => {
    const generator = (seed: Seed, options: GenerateOptions<typeof name> = {}) => {
      const { profile = 'mixed', ...rest } = options;
      // Typed as a state, but a JavaScript caller passes what it likes: read as build() and the mock read it.
      if ('state' in rest) rest.state = stateFrom(`generators.${name}`, rest.state);
      ctx.begin(seedFrom(name, seed), profile);
      return compiled[name](ctx, rest, buildNested);
    };
    return [name, generator];
  });
  return Object.fromEntries(entries) as Generators;
}

/** The package's default generator set. */
export const generators: Generators = createGenerators();

export interface EvaluationsForRequestOptions {
  /** The state every Evaluation is in; drawn per Evaluation by profile when absent. */
  state?: EvaluationState;
  profile?: Profile;
  /**
   * The moment of the create call, in microseconds since the epoch: the Evaluations' `created_at`, and what their other
   * moments (and the time inside their ids) follow. A seeded instant when absent.
   */
  createdAt?: number;
  /** The style of the generated ids when the request's ids have neither (the era asked for); the seed's when absent. */
  idStyle?: IdStyle;
}

/** The parts of a create request an answer depends on: its ids (never its provider keys). */
export type CreateRequestIds = Pick<
  CreateEvaluationRequest,
  'app_id' | 'testset_id' | 'variant_ids' | 'evaluators_configs'
>;

export type EvaluationsForRequest = (
  seed: Seed,
  request: CreateRequestIds,
  options?: EvaluationsForRequestOptions,
) => Evaluation[];

/**
 * The answer to a create request, as the service builds it: one Evaluation per requested variant, with the request's
 * app, test set and evaluator config ids, and what one run shares (creation moment, user, test set name, each
 * config's name and settings) the same in every Evaluation. Owns its random source, as a generator set does.
 */
/** The facts one create's Evaluations share, drawn afresh in `ctx` from the seed and the request's ids. */
function beginRun(
  ctx: GenerationContext,
  seed: Seed,
  request: CreateRequestIds,
  { profile = 'mixed', createdAt, idStyle }: EvaluationsForRequestOptions,
): EvaluationRun {
  checkMoment('evaluationsForRequest', 'createdAt', createdAt);
  ctx.begin(seedFrom('evaluationsForRequest', seed), profile);
  ctx.followIds([request.app_id, ...request.variant_ids, request.testset_id, ...request.evaluators_configs], idStyle);
  return drawRun(ctx, request, buildNested, createdAt);
}

export function createEvaluationsForRequest(): EvaluationsForRequest {
  const ctx = new GenerationContext();
  return (seed, request, options = {}) => {
    const { state } = options;
    const run = beginRun(ctx, seed, request, options);
    const shared = {
      state: stateFrom('evaluationsForRequest', state),
      appId: request.app_id,
      testsetId: request.testset_id,
      evaluatorConfigIds: request.evaluators_configs,
      run,
    };
    return request.variant_ids.map(
      (variantId, variantIndex) =>
        compiled.Evaluation(ctx, { ...shared, variantId, variantIndex }, buildNested) as Evaluation,
    );
  };
}

/** The random source evaluatorKeysForRequest draws with, begun afresh by each call: one, not one a call. */
const keysContext = new GenerationContext();

/**
 * The evaluator key of each config a create request names, as the Evaluations answering the same request (same seed,
 * same options) carry them once aggregated: what the service looks up before it starts a run.
 */
export function evaluatorKeysForRequest(
  seed: Seed,
  request: CreateRequestIds,
  options: EvaluationsForRequestOptions = {},
): Map<string, string> {
  const run = beginRun(keysContext, seed, request, options);
  return new Map([...run.evaluatorConfigs].map(([id, config]) => [id, config.evaluator_key]));
}

export const evaluationsForRequest: EvaluationsForRequest = createEvaluationsForRequest();

/** The seed of the index-th instance of a batch: batches made with one seed are the same batch every time. */
export function batchSeed(seed: Seed, index: number): number {
  return seedFrom(seed, index);
}

/** `count` instances of a resource from one seed. */
export function* generateBatch<N extends ResourceName>(
  name: N,
  seed: Seed,
  count: number,
  options?: GenerateOptions<N>,
  set: Generators = generators,
): IterableIterator<Instances[N]> {
  const generate = set[name] as ResourceGenerator<N>;
  for (let index = 0; index < count; index++) yield generate(batchSeed(seed, index), options);
}
