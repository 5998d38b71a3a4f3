import { boundaryIntegers } from '../context.js';
import { defaultRateLimit } from '../vocabulary.js';
import type { Recipe } from '../walker.js';
import type { GenerationContext } from '../context.js';

const realistic: Record<keyof typeof defaultRateLimit, (ctx: GenerationContext) => number> = {
  batch_size: (ctx) => ctx.pick([1, 5, 10, 10, 20, 50]),
  max_retries: (ctx) => ctx.int(0, 5),
  retry_delay: (ctx) => ctx.int(1, 10),
  delay_between_batches: (ctx) => ctx.int(0, 10),
};

export interface RateLimitOptions {
  /** The service UI's defaults (10, 3, 3, 5) instead of drawn values. */
  defaults?: boolean;
}

/** Units and bounds are not shown by the spec: realistic values by default, boundary integers under edge. */
export const rateLimitRecipe: Recipe<RateLimitOptions, RateLimitOptions> = {
  plan: (_ctx, options) => options,
  values: Object.fromEntries(
    Object.entries(realistic).map(([field, draw]) => [
      field,
      (ctx: GenerationContext, plan: RateLimitOptions) => {
        if (plan.defaults) return defaultRateLimit[field as keyof typeof defaultRateLimit];
        return ctx.edge ? ctx.pick(boundaryIntegers) : draw(ctx);
      },
    ]),
  ),
};
