import type { GenerationContext } from '../context.js';
import {
  evaluationFailureMessages,
  evaluationStates,
  failedStates,
  resultTypes,
  tenPointEvaluators,
  type EvaluationState,
  type EvaluatorKey,
  type ResultType,
} from '../vocabulary.js';
import type { Recipe } from '../walker.js';

export interface ResultOptions {
  /** The Result's type; drawn from the service's vocabulary when absent. */
  type?: ResultType;
  /** For a `status` Result: the lifecycle state it reports. */
  state?: EvaluationState;
  /** For a `number` Result: the evaluator that produced it, which sets its scale. */
  evaluatorKey?: EvaluatorKey;
  /** The value, where the caller has computed it (a total from an average); drawn for the type otherwise. */
  value?: unknown;
  /** For `error` Results, and `cost` or `latency` ones with nothing to aggregate: the Error's message. */
  errorMessage?: string;
}

interface ResultPlan {
  type: ResultType;
  /** `undefined`: no value sent. `null` is a value: a number Result with nothing to average. */
  value: unknown;
  errorMessage: string | undefined;
}

/** The state a status Result reports when none is asked for, by profile. */
export function defaultState(ctx: GenerationContext): EvaluationState {
  switch (ctx.profile) {
    case 'minimal':
      return 'EVALUATION_INITIALIZED';
    case 'full':
      return 'EVALUATION_FINISHED';
    case 'edge':
      return ctx.pick([...failedStates, 'EVALUATION_FINISHED_WITH_ERRORS']);
    default:
      return ctx.pick(evaluationStates);
  }
}

function drawValue(ctx: GenerationContext, type: ResultType, options: ResultOptions): unknown {
  switch (type) {
    case 'status':
      return options.state;
    case 'number': {
      if (ctx.chance(ctx.edge ? 0.3 : 0.05)) return null;
      const scale = options.evaluatorKey && tenPointEvaluators.has(options.evaluatorKey) ? 10 : 1;
      return ctx.round(ctx.float(0, scale), 4);
    }
    case 'bool':
      return ctx.chance(0.5);
    case 'text':
      return ctx.text(() => ctx.faker.lorem.sentence());
    case 'error':
      return null;
    case 'latency':
      return ctx.round(ctx.float(0.2, 12), 4);
    case 'cost':
      return ctx.round(ctx.float(0.00001, 0.05), 6);
  }
}

/** A Result whose value fits its type, and whose Error is present exactly when its kind reports a failure. */
export const resultRecipe: Recipe<ResultPlan, ResultOptions> = {
  plan(ctx, options) {
    const type = options.type ?? ctx.pick(resultTypes);
    const state = type === 'status' ? (options.state ?? defaultState(ctx)) : undefined;
    const errorMessage =
      type === 'error'
        ? (options.errorMessage ?? 'Evaluation Failed')
        : state && failedStates.has(state)
          ? evaluationFailureMessages[state as keyof typeof evaluationFailureMessages]
          : undefined;
    return {
      type,
      value: options.value !== undefined ? options.value : drawValue(ctx, type, { ...options, state }),
      errorMessage,
    };
  },
  values: {
    type: (_ctx, plan) => plan.type,
    value: (_ctx, plan) => plan.value,
    error: (_ctx, plan, build) => build('Error', _ctx, { message: plan.errorMessage }),
  },
  present(field, plan) {
    if (field === 'value') return plan.value !== undefined;
    if (field === 'error') return plan.errorMessage !== undefined;
    return undefined;
  },
};
