import { HttpProblem } from './errors.js';

/** The error codes a scenario may ask for: every operation has a canned answer for each (mock/core/operations.ts). */
const scenarioErrorCodes = [401, 403, 404, 422, 429, 500, 503] as const;

/** An operation's canned error answers, one per code a scenario may ask for: a code it lacks does not compile. */
export type ScenarioAnswers = Readonly<Record<(typeof scenarioErrorCodes)[number], HttpProblem>>;

/**
 * The error answers every operation gives alike, with bodies like the real service's: FastAPI `{"detail": ...}`
 * (domain notes). Built once at load, so serving one costs no serialization.
 */
export const commonAnswers = {
  401: new HttpProblem(401, 'Unauthorized', { 'WWW-Authenticate': 'Bearer' }),
  403: new HttpProblem(403, 'You do not have access to perform this action. Please contact your organization admin.'),
  429: new HttpProblem(429, 'Too Many Requests', { 'Retry-After': '5' }),
  503: new HttpProblem(503, 'Service Unavailable', { 'Retry-After': '30' }),
} as const;

/** Status codes a scenario may ask for; 200 means "answer normally", which lets a request undo a server-wide code. */
export const scenarioCodes: readonly number[] = [200, ...scenarioErrorCodes];

export function isScenarioCode(code: number): boolean {
  return scenarioCodes.includes(code);
}

/** The canned error answer of an operation for a scenario code other than 200. */
export function scenarioAnswer(answers: ScenarioAnswers, code: number): HttpProblem {
  const answer = (answers as Partial<Record<number, HttpProblem>>)[code];
  if (!answer) throw new Error(`no scenario answer for ${code}`);
  return answer;
}
