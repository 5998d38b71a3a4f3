import type { EvaluatorConfig } from '../../schemas/types/resources.js';
import { evaluatorKeys, type EvaluatorKey } from '../vocabulary.js';
import type { Recipe } from '../walker.js';

export interface AggregatedResultOptions {
  /** The config itself, when the caller already has it (all Evaluations of one run share their configs). */
  evaluatorConfig?: EvaluatorConfig;
  evaluatorConfigId?: string;
  evaluatorKey?: EvaluatorKey;
  /** The evaluator failed on every row: an `error` Result. */
  failed?: boolean;
  /** The moment (µs) of the evaluation it belongs to: its config predates it. */
  before?: number;
}

interface AggregatedResultPlan {
  config: EvaluatorConfig | undefined;
  configId: string | undefined;
  key: EvaluatorKey;
  failed: boolean;
  before: number | undefined;
}

/** One evaluator config's aggregate: a mean (`number`) or an `error` Result, never anything else. */
export const aggregatedResultRecipe: Recipe<AggregatedResultPlan, AggregatedResultOptions> = {
  plan: (ctx, options) => ({
    config: options.evaluatorConfig,
    configId: options.evaluatorConfigId,
    key:
      (options.evaluatorConfig?.evaluator_key as EvaluatorKey | undefined) ??
      options.evaluatorKey ??
      ctx.pick(evaluatorKeys),
    failed: options.failed ?? ctx.chance(ctx.edge ? 0.5 : 0.1),
    before: options.before,
  }),
  values: {
    evaluator_config: (ctx, plan, build) =>
      plan.config ?? build('EvaluatorConfig', ctx, { id: plan.configId, evaluatorKey: plan.key, before: plan.before }),
    result: (ctx, plan, build) =>
      build(
        'Result',
        ctx,
        plan.failed
          ? { type: 'error', errorMessage: `Error in ${plan.key} evaluator` }
          : { type: 'number', evaluatorKey: plan.key },
      ),
  },
};
