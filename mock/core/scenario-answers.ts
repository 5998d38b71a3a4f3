import { HttpProblem } from './errors.js';
import type { OperationId } from '../../api/operations.js';

/**
 * The error answers a scenario can ask for, with bodies like the real service's: FastAPI `{"detail": ...}`
 * (domain notes). Built once at load, so serving one costs no serialization.
 */
const common: Record<number, HttpProblem> = {
  401: new HttpProblem(401, 'Unauthorized', { 'WWW-Authenticate': 'Bearer' }),
  403: new HttpProblem(403, 'You do not have access to perform this action. Please contact your organization admin.'),
  429: new HttpProblem(429, 'Too Many Requests', { 'Retry-After': '5' }),
  503: new HttpProblem(503, 'Service Unavailable', { 'Retry-After': '30' }),
};

const answers: Record<OperationId, Record<number, HttpProblem>> = {
  fetchHumanEvaluation: {
    ...common,
    404: new HttpProblem(404, 'Evaluation not found'),
    422: new HttpProblem(422, [{ loc: ['path', 'evaluation_id'], msg: 'invalid evaluation id', type: 'value_error' }]),
    500: new HttpProblem(500, 'An error occurred while fetching the human evaluation'),
  },
  createEvaluations: {
    ...common,
    404: new HttpProblem(404, 'App not found'),
    422: new HttpProblem(422, [{ loc: ['body', 'rate_limit'], msg: 'field required', type: 'value_error.missing' }]),
    500: new HttpProblem(500, 'An error occurred while creating evaluations'),
  },
};

/** Status codes a scenario may ask for; 200 means "answer normally", which lets a request undo a server-wide code. */
export const scenarioCodes = [200, ...Object.keys(answers.fetchHumanEvaluation).map(Number)];

export function isScenarioCode(code: number): boolean {
  return scenarioCodes.includes(code);
}

/** The canned error answer of an operation for a scenario code other than 200. */
export function scenarioAnswer(operation: OperationId, code: number): HttpProblem {
  const answer = answers[operation][code];
  if (!answer) throw new Error(`no scenario answer for ${operation} ${code}`);
  return answer;
}
