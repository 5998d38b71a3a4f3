import { mintedAt, windowEndMicros } from '../context.js';
import { checkMoment } from '../moments.js';
import { evaluationTypes, humanEvaluationStates, type IdStyle } from '../vocabulary.js';
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
import type { Recipe } from '../walker.js';

export interface HumanEvaluationOptions {
  /** The id asked for: the record answers with it, and its other ids take its style (ObjectId or UUIDv7). */
  id?: string;
  /** The style of the ids when `id` has neither (the era asked for); the seed's when absent. */
  idStyle?: IdStyle;
  status?: string;
  /**
   * A moment (microseconds) the record's dates may not pass: the present of the request it answers. A record drawn
   * later than it is drawn again before it; one drawn earlier, the usual case, is the same whatever the moment.
   */
  notAfter?: number;
  /**
   * The record's moments (microseconds), when the caller follows its lifecycle: created then, updated then. Used as
   * given but for an id that carries its own creation time (an ObjectId, a UUIDv7) earlier than `createdAt`, which
   * the record keeps, as the service mints ids at creation.
   */
  period?: { createdAt: number; updatedAt: number };
}

interface HumanEvaluationPlan extends Period {
  id: string | undefined;
  type: keyof typeof evaluationTypes;
  status: string;
  variants: Variants;
}

/**
 * The period of a record whose id carries the time it was minted (an ObjectId, a UUIDv7), as the service mints it at
 * creation: created then (the drawn moment's digits below the id's precision), updated as long after as drawn, never
 * after `notAfter` (the request's moment; without one, the end of the generators' fixed window, so a factory's output
 * does not depend on the day). Undefined when the id carries no time, or one later than that.
 */
function periodOfId(id: string | undefined, drawn: Period, notAfter = windowEndMicros): Period | undefined {
  const minted = id === undefined ? undefined : mintedAt(id);
  if (!minted) return undefined;
  const createdAt = minted.at + (drawn.createdAt % minted.precision);
  if (createdAt > notAfter) return undefined;
  return { createdAt, updatedAt: Math.min(createdAt + (drawn.updatedAt - drawn.createdAt), notAfter) };
}

/** A followed record's period: as given, created at its id's own moment when that is earlier. */
function followedPeriod(id: string | undefined, drawn: Period, given: Period): Period {
  const minted = periodOfId(id, drawn, given.createdAt);
  const createdAt = minted?.createdAt ?? given.createdAt;
  return { createdAt, updatedAt: Math.max(createdAt, given.updatedAt) };
}

const evaluationTypeNames = Object.keys(evaluationTypes) as Array<keyof typeof evaluationTypes>;

export const humanEvaluationRecipe: Recipe<HumanEvaluationPlan, HumanEvaluationOptions> = {
  plan(ctx, options) {
    checkMoment('HumanEvaluation', 'notAfter', options.notAfter);
    checkMoment('HumanEvaluation', 'period.createdAt', options.period?.createdAt);
    checkMoment('HumanEvaluation', 'period.updatedAt', options.period?.updatedAt);
    ctx.followIds([options.id], options.idStyle);
    const type = ctx.pick(evaluationTypeNames);
    const status = options.status ?? ctx.aside('status', () => ctx.pick(humanEvaluationStates));
    const unchanged = status === 'EVALUATION_INITIALIZED';
    const drawn = drawPeriod(ctx, unchanged);
    const period =
      (options.period && followedPeriod(options.id, drawn, options.period)) ??
      periodOfId(options.id, drawn, options.notAfter) ??
      (options.notAfter !== undefined && drawn.updatedAt > options.notAfter
        ? drawPeriod(ctx, unchanged, { before: options.notAfter + 1 })
        : drawn);
    // An A/B test compares exactly two variants and a single-model test one, under every profile: the service's
    // A/B view compares two (domain notes), so a record with another count is not an edge case but an impossible one.
    return {
      ...period,
      id: options.id,
      type,
      status,
      variants: drawVariants(ctx, evaluationTypes[type], earlier(ctx, period.createdAt)),
    };
  },
  values: {
    id: (ctx, plan) => plan.id ?? ctx.id(plan.createdAt),
    app_id: (ctx, plan) => ctx.id(earlier(ctx, plan.createdAt)),
    user_id: (ctx, plan) => ctx.id(earlier(ctx, plan.createdAt)),
    user_username: (ctx) => drawUsername(ctx),
    evaluation_type: (_ctx, plan) => plan.type,
    ...variantValues(variantArrays.HumanEvaluation),
    testset_id: (ctx, plan) => ctx.id(earlier(ctx, plan.createdAt)),
    testset_name: (ctx) => drawTestsetName(ctx),
    status: (_ctx, plan) => plan.status,
    created_at: (ctx, plan) => ctx.timestamp(plan.createdAt),
    updated_at: (ctx, plan) => ctx.timestamp(plan.updatedAt),
  },
};
