import { declaredProperties, requiredProperties } from '../../schemas/index.js';
import type { EvaluatorConfig } from '../../schemas/types/resources.js';
import type { GenerationContext } from '../context.js';
import { evaluatorKeys, failedStates, noCostMessage, noLatencyMessage, type EvaluationState } from '../vocabulary.js';
import { defaultState } from './result.js';
import {
  drawPeriod,
  drawTestsetName,
  drawUsername,
  drawVariants,
  earlier,
  type Period,
  variantArrays,
  variantValues,
  type Variants,
} from './shared.js';
import type { BuildNested, Recipe } from '../walker.js';

export interface EvaluationOptions {
  /** The lifecycle state served; drawn by profile when absent. */
  state?: EvaluationState;
  appId?: string;
  testsetId?: string;
  /** The one variant this Evaluation runs (the service makes one Evaluation per requested variant). */
  variantId?: string;
  /** With `run`: the place of `variantId` in the request, whose variant (name, revision) the run drew. */
  variantIndex?: number;
  /** The evaluator configs requested; aggregated results only ever name these. */
  evaluatorConfigIds?: readonly string[];
  /** What the Evaluations answering one create request share; see evaluationsForRequest. */
  run?: EvaluationRun;
}

/** What of a create request its run is drawn from. */
interface RunRequest {
  variant_ids: readonly string[];
  evaluators_configs: readonly string[];
}

/** The variant at `index` of a run's variants, as the one variant of its Evaluation. */
function variantAt({ ids, names, revisionIds, revisions }: Variants, index: number): Variants {
  const one = (values: string[]) => values.slice(index, index + 1);
  return { ids: one(ids), names: one(names), revisionIds: one(revisionIds), revisions: one(revisions) };
}

/**
 * One create call's shared facts: every Evaluation it answers was created at once, by one user, with the same configs,
 * and was written by one release of the service, which sends the same optional fields in each.
 */
export interface EvaluationRun {
  /** The moment of the create call, in microseconds: every Evaluation it answers was created then. */
  createdAt: number;
  userId: string;
  username: string;
  testsetName: string;
  /** The request's variants, drawn together: one app's variants, no name twice. */
  variants: Variants;
  evaluatorConfigs: ReadonlyMap<string, EvaluatorConfig>;
  /** The optional Evaluation fields the run's answers send (where the state allows them). */
  optionalSent: ReadonlySet<string>;
}

const optionalFields = declaredProperties('Evaluation').filter(
  (field) => !requiredProperties('Evaluation').includes(field),
);

interface EvaluationPlan extends Period {
  state: EvaluationState;
  options: EvaluationOptions;
  variants: Variants;
  configIds: string[];
  /** Rows of the test set run so far: total cost is the average times this. */
  rows: number;
  averageCost: number;
  /** Whether average_cost, total_cost and average_latency are sent: all three or none, as a run writes them. */
  figuresSent: boolean;
}

const finishedStates: ReadonlySet<EvaluationState> = new Set([
  'EVALUATION_FINISHED',
  'EVALUATION_FINISHED_WITH_ERRORS',
]);

/** The figures a run reports once rows have run. */
const figureFields: ReadonlySet<string> = new Set(['average_cost', 'total_cost', 'average_latency']);

function aggregatedResults(ctx: GenerationContext, plan: EvaluationPlan, build: BuildNested): unknown[] {
  if (!finishedStates.has(plan.state)) return [];
  const withErrors = plan.state === 'EVALUATION_FINISHED_WITH_ERRORS';
  const failing = withErrors ? ctx.int(0, plan.configIds.length - 1) : -1;
  return plan.configIds.map((configId, index) =>
    build('AggregatedResult', ctx, {
      evaluatorConfig: plan.options.run?.evaluatorConfigs.get(configId),
      evaluatorConfigId: configId,
      evaluatorKey: ctx.pick(evaluatorKeys),
      failed: index === failing || (withErrors && ctx.chance(0.2)),
      before: plan.createdAt,
    }),
  );
}

/** Cost and latency exist once rows have run; before that, or after a failure, an `error` Result says why. */
function figure(kind: 'cost' | 'latency', value: (plan: EvaluationPlan, ctx: GenerationContext) => number) {
  return (ctx: GenerationContext, plan: EvaluationPlan, build: BuildNested) =>
    finishedStates.has(plan.state)
      ? build('Result', ctx, { type: kind, value: value(plan, ctx) })
      : build('Result', ctx, { type: 'error', errorMessage: kind === 'cost' ? noCostMessage : noLatencyMessage });
}

export const evaluationRecipe: Recipe<EvaluationPlan, EvaluationOptions> = {
  plan(ctx, options) {
    const state = options.state ?? ctx.aside('state', () => defaultState(ctx));
    const period = options.run
      ? justCreated(ctx, options.run.createdAt)
      : drawPeriod(ctx, state === 'EVALUATION_INITIALIZED');
    const configCount = options.evaluatorConfigIds?.length ?? (ctx.edge ? ctx.int(0, 1) : ctx.int(1, 4));
    const configIds = options.evaluatorConfigIds
      ? [...options.evaluatorConfigIds]
      : Array.from({ length: configCount }, () => ctx.id(earlier(ctx, period.createdAt)));
    // One Evaluation runs one variant (domain notes), under every profile.
    const variantIds = options.variantId !== undefined ? [options.variantId] : undefined;
    const { run, variantIndex } = options;
    return {
      ...period,
      state,
      options,
      variants:
        run && variantIndex !== undefined
          ? variantAt(run.variants, variantIndex)
          : drawVariants(ctx, 1, earlier(ctx, period.createdAt), variantIds),
      configIds,
      rows: ctx.int(5, 200),
      averageCost: ctx.round(ctx.float(0.00002, 0.02), 6),
      figuresSent: figuresSent(ctx, state, options.run),
    };
  },
  values: {
    id: (ctx, plan) => ctx.id(plan.createdAt),
    app_id: (ctx, plan) => plan.options.appId ?? ctx.id(earlier(ctx, plan.createdAt)),
    user_id: (ctx, plan) => plan.options.run?.userId ?? ctx.id(earlier(ctx, plan.createdAt)),
    user_username: (ctx, plan) => plan.options.run?.username ?? drawUsername(ctx),
    ...variantValues(variantArrays.Evaluation),
    testset_id: (ctx, plan) => plan.options.testsetId ?? ctx.id(earlier(ctx, plan.createdAt)),
    testset_name: (ctx, plan) => plan.options.run?.testsetName ?? drawTestsetName(ctx),
    status: (ctx, plan, build) => build('Result', ctx, { type: 'status', state: plan.state }),
    aggregated_results: aggregatedResults,
    average_cost: figure('cost', (plan) => plan.averageCost),
    total_cost: figure('cost', (plan, ctx) => ctx.round(plan.averageCost * plan.rows, 6)),
    average_latency: figure('latency', (_plan, ctx) => ctx.round(ctx.float(0.3, 15), 4)),
    created_at: (ctx, plan) => ctx.timestamp(plan.createdAt),
    updated_at: (ctx, plan) => ctx.timestamp(plan.updatedAt),
  },
  followsState: new Set(['status', 'aggregated_results', ...figureFields]),
  present(field, plan, ctx) {
    // testset_id is optional but the request always names one: when it is known, echo it.
    if (field === 'testset_id' && plan.options.testsetId !== undefined) return ctx.profile !== 'minimal';
    if (figureFields.has(field)) return plan.figuresSent;
    return plan.options.run?.optionalSent.has(field);
  },
};

/**
 * Whether a run's cost and latency figures are sent, decided once for the three: a completed run writes
 * average_cost, total_cost and average_latency together. An Evaluation a create call answers has none until it is
 * finished (the recorded answer: absent, or null under `nullable`); the run's one choice holds for every Evaluation
 * of the call. Drawn aside, so the choice moves no other value of the record.
 */
function figuresSent(ctx: GenerationContext, state: EvaluationState, run: EvaluationRun | undefined): boolean {
  const finished = finishedStates.has(state);
  // A failed run has aggregated, with no valid values: under `full` (every documented field) its figures come as the
  // `error` Result saying so, the one place a created Evaluation shows that form.
  const aggregated = finished || (ctx.profile === 'full' && failedStates.has(state));
  if (run) return aggregated && run.optionalSent.has('average_cost');
  return ctx.aside('figures', () => {
    if (ctx.profile === 'mixed') return finished && ctx.chance(0.9);
    return ctx.includeOptional();
  });
}

/**
 * The period of an Evaluation a create call answers, in whatever state it is served: the service stamps it at the call
 * and writes it once more a few microseconds later (the recorded answer), so a UI showing `now - created_at` as a
 * run's duration shows a run that has just begun.
 */
function justCreated(ctx: GenerationContext, createdAt: number): Period {
  return { createdAt, updatedAt: createdAt + ctx.int(1, 40) };
}

/**
 * Draws the facts the Evaluations answering one create request share: the creation moment (`at`, the call's moment in
 * microseconds, when given; a seeded instant otherwise), the user, the configs.
 */
export function drawRun(
  ctx: GenerationContext,
  { variant_ids: variantIds, evaluators_configs: evaluatorConfigIds }: RunRequest,
  build: BuildNested,
  at?: number,
): EvaluationRun {
  const createdAt = at ?? ctx.instant();
  const past = at === undefined ? createdAt : pastOfCall(ctx, at);
  return {
    createdAt,
    userId: ctx.id(earlier(ctx, past)),
    username: drawUsername(ctx),
    testsetName: drawTestsetName(ctx),
    variants: drawVariants(ctx, variantIds.length, earlier(ctx, past), variantIds),
    evaluatorConfigs: new Map(
      evaluatorConfigIds.map((id) => [id, build('EvaluatorConfig', ctx, { id, before: past }) as EvaluatorConfig]),
    ),
    optionalSent: new Set(optionalFields.filter(() => ctx.includeOptional())),
  };
}

/**
 * The moment before which a call at `at` (the mock's clock) finds what it refers to: its user, the variants'
 * revisions, the evaluator configs. They existed before any call, so they are dated from a seeded instant (drawn
 * aside: no other value moves), or from `at` when that is earlier. Dated from `at` itself, the same user would get
 * another id, and a config other dates, at every tick of the clock.
 */
function pastOfCall(ctx: GenerationContext, at: number): number {
  return Math.min(
    ctx.aside('past of the call', () => ctx.instant()),
    at,
  );
}
