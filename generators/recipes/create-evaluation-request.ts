import { answerColumns, providerKeyNames } from '../vocabulary.js';
import { earlier } from './shared.js';
import type { Recipe } from '../walker.js';

interface RequestPlan {
  at: number;
}

/** Provider keys are fake by construction (`sk-fake-…`): fixtures must never look like a leaked credential. */
export const createEvaluationRequestRecipe: Recipe<RequestPlan, object> = {
  plan: (ctx) => ({ at: earlier(ctx, ctx.instant()) }),
  values: {
    app_id: (ctx, plan) => ctx.id(plan.at),
    variant_ids: (ctx, plan) => Array.from({ length: ctx.edge ? ctx.int(0, 1) : ctx.int(1, 3) }, () => ctx.id(plan.at)),
    evaluators_configs: (ctx, plan) =>
      Array.from({ length: ctx.edge ? ctx.int(0, 1) : ctx.int(1, 4) }, () => ctx.id(plan.at)),
    testset_id: (ctx, plan) => ctx.id(plan.at),
    rate_limit: (ctx, _plan, build) => build('RateLimit', ctx, { defaults: ctx.profile !== 'edge' && ctx.chance(0.5) }),
    lm_providers_keys: (ctx) => {
      const names = ctx.edge ? [] : [...new Set([ctx.pick(providerKeyNames), ctx.pick(providerKeyNames)])];
      return Object.fromEntries(names.map((name) => [name, `sk-fake-${ctx.hex(40)}`]));
    },
    correct_answer_column: (ctx) => ctx.text(() => ctx.pick(answerColumns)),
  },
};
