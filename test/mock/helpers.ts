import { expect } from 'vitest';
import type { SchemaName } from '../../schemas/index.js';
import { formatIssue, validate } from '../../schemas/validators/index.js';

/** A valid create request: two variants and three evaluator configs, with a credential that must never come back. */
export const secret = 'sk-test-DO-NOT-ECHO-4f2a9c';

export function createRequest(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    app_id: 'app-1',
    variant_ids: ['variant-a', 'variant-b'],
    evaluators_configs: ['config-1', 'config-2', 'config-3'],
    testset_id: 'testset-1',
    rate_limit: { batch_size: 10, max_retries: 3, retry_delay: 3, delay_between_batches: 5 },
    lm_providers_keys: { OPENAI_API_KEY: secret },
    correct_answer_column: 'correct_answer',
    ...overrides,
  };
}

/**
 * A create body as both generations of the real SDK send it when the caller passes `None`: the optional fields as
 * explicit nulls.
 */
export function sdkCreateRequest(): Record<string, unknown> {
  return createRequest({ lm_providers_keys: null, correct_answer_column: null });
}

/** Fails with every schema issue listed, so a failing test says what is wrong with the body. */
export function expectValid(name: SchemaName, data: unknown): void {
  const result = validate(name, data);
  expect(result.issues.map(formatIssue), `${name} must be valid`).toEqual([]);
}

/** A success body of POST /evaluations: an array of valid Evaluations. */
export function expectEvaluations(body: unknown): Array<Record<string, any>> {
  expect(Array.isArray(body)).toBe(true);
  for (const evaluation of body as unknown[]) expectValid('Evaluation', evaluation);
  return body as Array<Record<string, any>>;
}

/** A record without the given fields: what stays the same when a lifecycle state changes. */
export function apartFrom<T extends object>(record: T, fields: readonly string[]): Partial<T> {
  return Object.fromEntries(Object.entries(record).filter(([field]) => !fields.includes(field))) as Partial<T>;
}

/** What an Evaluation's state decides (domain notes): its status, results, figures and last update. */
export const evaluationStateFields = [
  'status',
  'aggregated_results',
  'average_cost',
  'total_cost',
  'average_latency',
  'updated_at',
];

/** A 24-hex MongoDB ObjectId: the ids of the service's older releases. */
export const objectId = /^[0-9a-f]{24}$/;
/** A UUIDv7 (version 7, RFC 9562 variant): the ids of its newer ones. */
export const uuidV7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** FastAPI's answer to a create with no body at all, in pydantic 2's words (the mock's default, the newest release). */
export const noBodyAnswer = {
  detail: [
    {
      type: 'missing',
      loc: ['body'],
      msg: 'Field required',
      input: null,
      url: 'https://errors.pydantic.dev/2.7/v/missing',
    },
  ],
};
