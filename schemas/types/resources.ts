/* Generated from schemas/ by `npm run types`. Do not edit: a test fails when this file and the schemas differ. */

/**
 * HumanEvaluation: response of Fetch Human Evaluation. All fields are required. Allowed values of evaluation_type: not
 * shown. States of status: not shown.
 */
export interface HumanEvaluation {
  id: string;
  app_id: string;
  user_id: string;
  user_username: string;
  evaluation_type: string;
  variant_ids: string[];
  variant_names: string[];
  variants_revision_ids: string[];
  revisions: string[];
  testset_id: string;
  testset_name: string;
  status: string;
  created_at: string;
  updated_at: string;
  [k: string]: unknown;
}

/**
 * Evaluation: element of the response of Create Evaluation. Holds aggregated results per evaluator configuration and
 * cost and latency figures. Note the field name variant_revision_ids here, against variants_revision_ids in
 * HumanEvaluation.
 */
export interface Evaluation {
  id: string;
  app_id: string;
  user_id: string;
  user_username: string;
  variant_ids: string[];
  variant_names: string[];
  variant_revision_ids: string[];
  revisions: string[];
  testset_id?: string;
  testset_name?: string;
  status: Result;
  aggregated_results: AggregatedResult[];
  average_cost?: Result;
  total_cost?: Result;
  average_latency?: Result;
  created_at: string;
  updated_at: string;
  [k: string]: unknown;
}

/**
 * Result object. The type and allowed forms of value: not shown. An Error object may be attached to report a failed
 * computation.
 */
export interface Result {
  type: string;
  /**
   * Untyped value: any JSON value.
   */
  value?: unknown;
  error?: ErrorObject;
  [k: string]: unknown;
}

/**
 * Error object. Inside Evaluation, an Error object (message required, stacktrace optional) may be attached to a Result
 * object to report a failed computation.
 */
export interface ErrorObject {
  message: string;
  stacktrace?: string;
  [k: string]: unknown;
}

/**
 * AggregatedResult: the result of one evaluator configuration. The evaluator_config is declared as one of several
 * alternatives (anyOf); only the EvaluatorConfig shape is given.
 */
export interface AggregatedResult {
  evaluator_config: EvaluatorConfig | UndocumentedEvaluatorConfig;
  result: Result;
  [k: string]: unknown;
}

/**
 * EvaluatorConfig: the one alternative of AggregatedResult.evaluator_config that the spec shows. The keys inside
 * settings_values: not shown. The format of identifiers: not shown.
 */
export interface EvaluatorConfig {
  id: string;
  name: string;
  evaluator_key: string;
  settings_values?: {
    [k: string]: unknown;
  };
  created_at: string;
  updated_at: string;
  [k: string]: unknown;
}

/**
 * Stands for the alternatives of AggregatedResult.evaluator_config that the spec declares (anyOf) but does not show:
 * any value that does not match the documented EvaluatorConfig. It is disjoint from EvaluatorConfig, so a validator can
 * tell which of the two a value matched.
 */
export type UndocumentedEvaluatorConfig = Record<string, unknown> | unknown[] | string | number | boolean | null;

/**
 * Request body of Create Evaluation: builds evaluations for an application, a list of variants, a list of evaluator
 * configurations and a test set. The lm_providers_keys values are credentials supplied by the caller per provider; they
 * are never echoed.
 */
export interface CreateEvaluationRequest {
  app_id: string;
  variant_ids: string[];
  evaluators_configs: string[];
  testset_id: string;
  rate_limit: RateLimit;
  /**
   * Arbitrary property names, string values: a credential per provider. Never echoed.
   */
  lm_providers_keys?: {
    [k: string]: string;
  };
  correct_answer_column?: string;
  [k: string]: unknown;
}

/**
 * rate_limit of the create request: controls pacing of the evaluation run. All fields are required integers. Units,
 * bounds and defaults of these integers: not shown.
 */
export interface RateLimit {
  batch_size: number;
  max_retries: number;
  retry_delay: number;
  delay_between_batches: number;
  [k: string]: unknown;
}

/**
 * The body of a 422 answer. Not shown by the spec (error bodies are not shown): this is FastAPI's shape, as the service
 * sends it. Each entry of detail says where a problem is (loc: body, path or query, then field names and list indexes),
 * what it is in words (msg) and its pydantic error type (type).
 */
export interface HTTPValidationError {
  detail: {
    loc: (string | number)[];
    msg: string;
    type: string;
    [k: string]: unknown;
  }[];
  [k: string]: unknown;
}

/**
 * The body of an error answer other than a 422. Not shown by the spec (error bodies are not shown): this is FastAPI's
 * shape, as the service sends it, where detail is a message or, from an HTTP exception raised with one, any JSON value.
 */
export interface HTTPError {
  /**
   * What went wrong: a message such as "App not found", or any JSON value.
   */
  detail: unknown;
  [k: string]: unknown;
}

/** Each schema's type by its name in schemas/: the OpenAPI components, which api/paths.ts builds on. */
export interface Schemas {
  HumanEvaluation: HumanEvaluation;
  Evaluation: Evaluation;
  Result: Result;
  Error: ErrorObject;
  AggregatedResult: AggregatedResult;
  EvaluatorConfig: EvaluatorConfig;
  UndocumentedEvaluatorConfig: UndocumentedEvaluatorConfig;
  CreateEvaluationRequest: CreateEvaluationRequest;
  RateLimit: RateLimit;
  HTTPValidationError: HTTPValidationError;
  HTTPError: HTTPError;
}
