import type { Recipe } from '../walker.js';
import type { GenerationContext } from '../context.js';

export interface ErrorOptions {
  message?: string;
}

const messages = [
  'Evaluation Failed',
  'Error during evaluation: Rate limit reached for model in organization',
  'Timeout while calling the LLM app',
  'Invalid response from the LLM app: expected JSON',
  'KeyError: correct_answer',
];

function traceback(ctx: GenerationContext, message: string): string {
  const frames = ctx.int(1, 4);
  const lines = ['Traceback (most recent call last):'];
  for (let i = 0; i < frames; i++) {
    const file = ctx.pick([
      'evaluations.py',
      'evaluators.py',
      'llm_apps_service.py',
      'aggregation_service.py',
      'tasks.py',
    ]);
    const line = ctx.int(20, 900);
    const fn = `${ctx.faker.word.verb()}_${ctx.faker.word.noun()}`;
    lines.push(`  File "/app/agenta_backend/services/${file}", line ${line}, in ${fn}`);
  }
  lines.push(message);
  return lines.join('\n');
}

export const errorRecipe: Recipe<{ message: string }, ErrorOptions> = {
  plan: (ctx, options) => ({ message: options.message ?? ctx.text(() => ctx.pick(messages)) }),
  values: {
    message: (_ctx, plan) => plan.message,
    stacktrace: (ctx, plan) => traceback(ctx, plan.message),
  },
};
