import type { GenerationContext } from '../context.js';
import { checkMoment } from '../moments.js';
import { answerColumns, evaluatorKeys, evaluatorSettings, type EvaluatorKey, type IdStyle } from '../vocabulary.js';
import { drawPeriod, type Period } from './shared.js';
import type { Recipe } from '../walker.js';

export interface EvaluatorConfigOptions {
  id?: string;
  evaluatorKey?: EvaluatorKey;
  /** A moment (µs) the config must predate: the evaluation that uses it. */
  before?: number;
}

interface EvaluatorConfigPlan extends Period {
  id: string | undefined;
  key: EvaluatorKey;
}

/**
 * The AI critique template as each era of the service ships it: the evaluator fills `{llm_app_prompt_template}`, each
 * test set input by its name (`{country}`), `{correct_answer}` and `{variant_output}`, nothing else (a placeholder it
 * does not fill fails the run). The ObjectId releases write it on one line under "Correct Answer:"; the UUIDv7 ones
 * on several, under "Expected Answer Column:" (correct_answer_key's era).
 */
const aiCritiqueTemplates: Record<IdStyle, string> = {
  'object-id':
    'We have an LLM App that we want to evaluate its outputs. Based on the prompt and the parameters provided below ' +
    'evaluate the output based on the evaluation strategy below: ' +
    'Evaluation strategy: 0 to 10 0 is very bad and 10 is very good. ' +
    'Prompt: {llm_app_prompt_template} Inputs: country: {country} Correct Answer:{correct_answer} ' +
    'Evaluate this: {variant_output} ' +
    'Answer ONLY with one of the given grading or evaluation options.',
  'uuid-v7':
    'We have an LLM App that we want to evaluate its outputs. Based on the prompt and the parameters provided below ' +
    'evaluate the output based on the evaluation strategy below:\n' +
    'Evaluation strategy: 0 to 10 0 is very bad and 10 is very good.\n' +
    'Prompt: {llm_app_prompt_template}\nInputs: country: {country}\nExpected Answer Column:{correct_answer}\n' +
    'Evaluate this: {variant_output}\n\n' +
    'Answer ONLY with one of the given grading or evaluation options.',
};

/** A plausible value for each settings_values key the service's evaluators take. */
const settingValues: Record<string, (ctx: GenerationContext) => unknown> = {
  correct_answer_key: (ctx) => ctx.pick(answerColumns),
  similarity_threshold: (ctx) => ctx.round(ctx.float(0.5, 0.95), 2),
  regex_pattern: (ctx) => ctx.pick(['^\\d+$', '^(yes|no)$', '\\bref(und)?\\b', '^[A-Z].*\\.$']),
  regex_should_match: (ctx) => ctx.chance(0.8),
  json_field: (ctx) => ctx.pick(['answer', 'label', 'category']),
  prompt_template: (ctx) => aiCritiqueTemplates[ctx.recordIdStyle],
  code: () =>
    'from typing import Dict\n\n' +
    'def evaluate(app_params: Dict[str, str], inputs: Dict[str, str], output: str, correct_answer: str) -> float:\n' +
    '    return 1.0 if output.strip() == correct_answer.strip() else 0.0\n',
  webhook_url: (ctx) => `https://hooks.example.com/evaluate/${ctx.hex(8)}`,
  prefix: (ctx) => ctx.pick(['Answer:', 'Sure', 'The']),
  suffix: (ctx) => ctx.pick(['.', '?', 'Thank you.']),
  substring: (ctx) => ctx.pick(['refund', 'policy', 'sorry']),
  substrings: (ctx) => ctx.pick(['refund,policy', 'yes,no,maybe', 'error,fail']),
  case_sensitive: (ctx) => ctx.chance(0.5),
  threshold: (ctx) => ctx.int(1, 20),
  compare_schema_only: (ctx) => ctx.chance(0.5),
  predict_keys: (ctx) => ctx.chance(0.5),
  case_insensitive_keys: (ctx) => ctx.chance(0.5),
};

const displayNames: Record<EvaluatorKey, string> = {
  auto_exact_match: 'Exact Match',
  auto_similarity_match: 'Similarity Match',
  auto_regex_test: 'Regex Test',
  field_match_test: 'JSON Field Match',
  auto_ai_critique: 'AI Critique',
  auto_custom_code_run: 'Code Evaluation',
  auto_webhook_test: 'Webhook Test',
  auto_starts_with: 'Starts With',
  auto_ends_with: 'Ends With',
  auto_contains: 'Contains',
  auto_contains_any: 'Contains Any',
  auto_contains_all: 'Contains All',
  auto_levenshtein_distance: 'Levenshtein Distance',
  auto_contains_json: 'Contains JSON',
  auto_json_diff: 'JSON Diff Match',
  auto_semantic_similarity: 'Semantic Similarity',
};

/** settings_values holds exactly the keys its evaluator_key takes. */
function settingsFor(ctx: GenerationContext, key: EvaluatorKey): Record<string, unknown> {
  return Object.fromEntries(
    evaluatorSettings[key].map((setting) => [
      setting,
      (settingValues[setting] as (c: GenerationContext) => unknown)(ctx),
    ]),
  );
}

export const evaluatorConfigRecipe: Recipe<EvaluatorConfigPlan, EvaluatorConfigOptions> = {
  plan: (ctx, options) => {
    checkMoment('EvaluatorConfig', 'before', options.before);
    return {
      id: options.id,
      key: options.evaluatorKey ?? ctx.pick(evaluatorKeys),
      ...drawPeriod(ctx, ctx.chance(0.6), { before: options.before }),
    };
  },
  values: {
    id: (ctx, plan) => plan.id ?? ctx.id(plan.createdAt),
    name: (ctx, plan) =>
      ctx.text(() =>
        ctx.chance(0.6) ? displayNames[plan.key] : `${displayNames[plan.key]} ${ctx.faker.word.adjective()}`,
      ),
    evaluator_key: (_ctx, plan) => plan.key,
    settings_values: (ctx, plan) => settingsFor(ctx, plan.key),
    created_at: (ctx, plan) => ctx.timestamp(plan.createdAt),
    updated_at: (ctx, plan) => ctx.timestamp(plan.updatedAt),
  },
  // The service stores a config with its settings, `{}` for an evaluator that takes none: never without them. Only the
  // minimal profile, the spec's required fields alone, leaves them out.
  present: (field, _plan, ctx) => (field === 'settings_values' ? ctx.profile !== 'minimal' : undefined),
};

/** A config the spec does not show: `{}` (what the service sends for a deleted config) or a stub of one. */
export const undocumentedEvaluatorConfigRecipe: Recipe<null, object> = {
  plan: () => null,
  values: {},
  whole: (ctx) => (ctx.chance(0.7) ? {} : { id: ctx.id(ctx.instant()), deleted: true }),
};
