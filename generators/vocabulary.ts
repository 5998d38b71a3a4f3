import type { OperationId } from '../api/operations.js';
import type { ResourceName } from '../schemas/index.js';

/**
 * The real service's vocabulary (../shared/spec/domain-notes.md). These are facts used for realism only:
 * the spec shows none of these values, so nothing here is ever a requirement of the contract.
 */

export const evaluationStates = [
  'EVALUATION_INITIALIZED',
  'EVALUATION_STARTED',
  'EVALUATION_FINISHED',
  'EVALUATION_FINISHED_WITH_ERRORS',
  'EVALUATION_FAILED',
  'EVALUATION_AGGREGATION_FAILED',
] as const;

export type EvaluationState = (typeof evaluationStates)[number];

/** The message of the Error a failed state's status Result carries. */
export const evaluationFailureMessages = {
  EVALUATION_FAILED: 'Evaluation Failed',
  EVALUATION_AGGREGATION_FAILED: 'Evaluation Aggregation Failed',
} as const satisfies Partial<Record<EvaluationState, string>>;

/** States whose status Result carries an Error: those with a failure message. */
export const failedStates: ReadonlySet<EvaluationState> = new Set(
  Object.keys(evaluationFailureMessages) as EvaluationState[],
);

export function isEvaluationState(value: string): value is EvaluationState {
  return (evaluationStates as readonly string[]).includes(value);
}

/** A state's short form, the part after `EVALUATION_` (`FAILED`), as the mock's `Prefer: state=failed` takes it. */
type EvaluationStateShortForm = EvaluationState extends `EVALUATION_${infer Short}` ? Short : never;

/** A state as callers may name it: in full or short, upper or lower case (any case is read at run time). */
export type EvaluationStateName =
  EvaluationState | Lowercase<EvaluationState> | EvaluationStateShortForm | Lowercase<EvaluationStateShortForm>;

/**
 * The names of the states a person types, for the one a typo meant: the short forms as the mock's `Prefer: state=`
 * writes them (`failed`), then the full names (`EVALUATION_FAILD` is one slip from `EVALUATION_FAILED`, and many from
 * `failed`).
 */
export const evaluationStateTypedNames: readonly string[] = [
  ...evaluationStates.map((state) => state.slice('EVALUATION_'.length).toLowerCase()),
  ...evaluationStates,
];

/** What a state may be written as, for messages that refuse one. */
export const evaluationStateNames = `${evaluationStates.join(', ')} (or the part after EVALUATION_, any case)`;

/**
 * The state a name stands for: `failed`, `Failed`, `EVALUATION_FAILED` are all EVALUATION_FAILED. The mock's scenarios
 * and the factories read states through this one rule.
 */
export function evaluationStateFrom(text: string): EvaluationState | undefined {
  const upper = text.toUpperCase();
  const state = upper.startsWith('EVALUATION_') ? upper : `EVALUATION_${upper}`;
  return isEvaluationState(state) ? state : undefined;
}

/** HumanEvaluation.status is a free string; these are the values seen in practice. */
export const humanEvaluationStates = ['EVALUATION_INITIALIZED', 'EVALUATION_STARTED', 'EVALUATION_FINISHED'] as const;

/**
 * Where each record keeps its lifecycle state (a JSON pointer), and the states it takes. The schemas cannot tell:
 * HumanEvaluation.status is a free string and Evaluation.status a Result, whose value is any JSON value.
 */
export const lifecycleStates = {
  Evaluation: { pointer: '/status/value', states: evaluationStates },
  HumanEvaluation: { pointer: '/status', states: humanEvaluationStates },
} as const satisfies { [N in ResourceName]?: { pointer: string; states: readonly string[] } };

/** evaluation_type and the number of variants each compares. */
export const evaluationTypes = { human_a_b_testing: 2, single_model_test: 1 } as const;

export const resultTypes = ['status', 'number', 'bool', 'text', 'error', 'latency', 'cost'] as const;
export type ResultType = (typeof resultTypes)[number];

/** Each evaluator key with the settings_values keys it takes. */
export const evaluatorSettings = {
  auto_exact_match: ['correct_answer_key'],
  auto_similarity_match: ['similarity_threshold', 'correct_answer_key'],
  auto_regex_test: ['regex_pattern', 'regex_should_match'],
  field_match_test: ['json_field', 'correct_answer_key'],
  auto_ai_critique: ['prompt_template', 'correct_answer_key'],
  auto_custom_code_run: ['code', 'correct_answer_key'],
  auto_webhook_test: ['webhook_url', 'correct_answer_key'],
  auto_starts_with: ['prefix', 'case_sensitive'],
  auto_ends_with: ['suffix', 'case_sensitive'],
  auto_contains: ['substring', 'case_sensitive'],
  auto_contains_any: ['substrings', 'case_sensitive'],
  auto_contains_all: ['substrings', 'case_sensitive'],
  auto_levenshtein_distance: ['threshold', 'correct_answer_key'],
  auto_contains_json: [],
  auto_json_diff: ['compare_schema_only', 'predict_keys', 'case_insensitive_keys', 'correct_answer_key'],
  auto_semantic_similarity: ['correct_answer_key'],
} as const satisfies Record<string, readonly string[]>;

export type EvaluatorKey = keyof typeof evaluatorSettings;
export const evaluatorKeys = Object.keys(evaluatorSettings) as EvaluatorKey[];

/**
 * Evaluators that call a model with the caller's provider key: a create naming a config of one with no
 * lm_providers_keys (absent, null or empty) is refused `400 {"detail": "Missing LM provider Key"}` before any run
 * starts (the service's check_ai_critique_inputs, in every release from v0.14 to v0.24.4).
 */
export const keyedEvaluators: ReadonlySet<EvaluatorKey> = new Set(['auto_ai_critique']);

/** AI critique scores are a 0-10 mean; every other evaluator aggregates to a 0-1 mean. */
export const tenPointEvaluators: ReadonlySet<EvaluatorKey> = new Set(['auto_ai_critique']);

export const providerKeyNames = [
  'OPENAI_API_KEY',
  'MISTRAL_API_KEY',
  'COHERE_API_KEY',
  'ANTHROPIC_API_KEY',
  'ANYSCALE_API_KEY',
  'PERPLEXITYAI_API_KEY',
  'DEEPINFRA_API_KEY',
  'TOGETHERAI_API_KEY',
  'ALEPHALPHA_API_KEY',
  'OPENROUTER_API_KEY',
  'GROQ_API_KEY',
  'GEMINI_API_KEY',
] as const;

/**
 * Names of the test set column that holds the expected answer: what a create request's correct_answer_column and an
 * evaluator config's correct_answer_key name.
 */
export const answerColumns = ['correct_answer', 'expected_output', 'ground_truth'] as const;

/** The service UI's rate_limit defaults (seconds for the delays). */
export const defaultRateLimit = { batch_size: 10, max_retries: 3, retry_delay: 3, delay_between_batches: 5 } as const;

export const noCostMessage = 'No valid values found for cost aggregation.';
export const noLatencyMessage = 'No valid values found for latency aggregation.';

/** How a release of the service makes ids: 24-hex ObjectIds (older) or UUIDv7 (newer). */
export type IdStyle = 'object-id' | 'uuid-v7';

/**
 * How a release writes its date-times (ObjectId releases from MongoDB's naive milliseconds, later ones from
 * PostgreSQL's aware microseconds), each as the service's code wrote it (Agenta's converters and models):
 * - `naive`: `2024-05-20T10:11:12.123000`, no offset, milliseconds padded (pydantic 1's isoformat of a naive datetime);
 * - `offset`: `2024-05-20T10:11:12.123456+00:00` (pydantic 1's isoformat of `datetime.now(timezone.utc)`);
 * - `spaced`: `2024-07-10 12:34:56.123456+00:00` (Python's `str()` of an aware datetime, in a `str` field);
 * - `zulu`: `2024-07-10T12:34:56.123456Z` (pydantic 2's JSON form of an aware datetime).
 * Only `offset` and `zulu` are RFC 3339; the service's own web client appends `Z` to any date not ending in one.
 */
export type ServiceDateForm = 'naive' | 'offset' | 'spaced' | 'zulu';

/**
 * The validation stack a release answers with (its poetry.lock): pydantic 1.10 up to v0.18.x, pydantic 2.7 from
 * v0.19.0, each under FastAPI 0.109.2. It decides the 422 bodies' shape and words, and what is coerced.
 */
export type ValidationStack = 'pydantic1' | 'pydantic2';

/** What a client can tell of a release of the service, by the release boundaries of the domain notes. */
export interface ServiceEra {
  /** The status a create answers. */
  createdState: EvaluationState;
  idStyle: IdStyle;
  /** The date form of each operation's answers: one release wrote a fetched record and a created one differently. */
  dateForms: Record<OperationId, ServiceDateForm>;
  validation: ValidationStack;
  /**
   * The lm_providers_keys names the release accepts (its `LMProvidersEnum`, twelve names from v0.15.0); undefined for
   * any name, as the spec has it.
   */
  providerKeyNames?: readonly string[];
}

/**
 * The service's eras, named by the release that began each (domain notes, "two eras"): up to v0.17.5 a create answers
 * EVALUATION_STARTED, from v0.18.0 EVALUATION_INITIALIZED; ids are ObjectIds up to v0.18 and UUIDv7 from v0.19.0,
 * which also moved to pydantic 2 and PostgreSQL. The two boundaries differ by one release, hence three names.
 */
export const eraNames = ['0.17', '0.18', '0.19'] as const;
export type EraName = (typeof eraNames)[number];

// Typed, not inferred: an operation added to api/operations.ts is then a missing date form here, and nowhere else.
export const serviceEras: Record<EraName, ServiceEra> = {
  '0.17': {
    createdState: 'EVALUATION_STARTED',
    idStyle: 'object-id',
    dateForms: { fetchHumanEvaluation: 'naive', createEvaluations: 'offset' },
    validation: 'pydantic1',
    providerKeyNames,
  },
  '0.18': {
    createdState: 'EVALUATION_INITIALIZED',
    idStyle: 'object-id',
    dateForms: { fetchHumanEvaluation: 'naive', createEvaluations: 'offset' },
    validation: 'pydantic1',
    providerKeyNames,
  },
  '0.19': {
    createdState: 'EVALUATION_INITIALIZED',
    idStyle: 'uuid-v7',
    dateForms: { fetchHumanEvaluation: 'spaced', createEvaluations: 'zulu' },
    validation: 'pydantic2',
    providerKeyNames,
  },
};

/**
 * What the mock answers with where the spec is silent and no era is set: the newest release's validation stack, but
 * any provider key name (the spec's "arbitrary property names").
 */
export const newestRelease: ServiceEra = { ...serviceEras['0.19'], providerKeyNames: undefined };

/**
 * The oldest release whose answers the eras describe: its twelve provider key names are complete from v0.15.0, and
 * nothing of the releases before was measured. An older release is refused, never answered as another.
 */
const oldestKnownRelease = { major: 0, minor: 15 } as const;

/** The oldest release the eras describe, as refusals name it. */
export const oldestKnownReleaseName = `v${oldestKnownRelease.major}.${oldestKnownRelease.minor}.0`;

/** A release as a person writes it (`0.17`, `v0.18.0`, `0.26.1`): its major and minor numbers. */
function releaseOf(text: string): { major: number; minor: number } | undefined {
  const match = /^v?(\d{1,3})\.(\d{1,3})(?:\.\d{1,3})?$/.exec(text);
  return match ? { major: Number(match[1]), minor: Number(match[2]) } : undefined;
}

/**
 * Whether text names a release older than any the eras describe (before v0.15.0): refused for that reason, and not
 * taken for a typo of an era's name (`0.1` is as near 0.17 as 0.19, and may be the release it says).
 */
export function isReleaseBeforeEras(text: string): boolean {
  const release = releaseOf(text);
  return (
    release !== undefined && release.major === oldestKnownRelease.major && release.minor < oldestKnownRelease.minor
  );
}

/**
 * The era of a release, written `0.17`, `v0.18.0` or `0.26.1` (v0.15.0 to 0.17.x is `0.17`, 0.18.x is `0.18`, 0.19.0
 * and later `0.19`), so a team passes the release it runs; undefined for text that is not a release the eras know.
 */
export function eraFrom(text: string): EraName | undefined {
  const release = releaseOf(text);
  if (release === undefined || isReleaseBeforeEras(text)) return undefined;
  const { major, minor } = release;
  if (major > 0 || minor >= 19) return '0.19';
  return minor === 18 ? '0.18' : '0.17';
}
