import type { OperationId } from '../../api/operations.js';
import { createEvaluations } from './create-evaluations.js';
import { HttpProblem } from './errors.js';
import { fetchHumanEvaluation } from './fetch-human-evaluation.js';
import type { MockConfig } from './options.js';
import type { MockAnswer, MockRequest } from './request-answer.js';
import { readServiceBody } from './request-body.js';
import { commonAnswers, type ScenarioAnswers } from './scenario-answers.js';
import type { RequestContext } from './sessions.js';

/** What answers an operation whose method and path matched: its decoded path parameters in. */
export type OperationHandler = (
  params: Record<string, string>,
  request: MockRequest,
  headers: Record<string, string>,
  context: RequestContext,
) => MockAnswer | Promise<MockAnswer>;

/**
 * How the mock answers one operation, one object per operation as Prism's operation objects and MSW's handlers are: a
 * new operation owes its handler and its canned answers here, together (a compile error), and neither can be missed.
 */
interface MockOperation {
  /** The error answer a scenario's code asks for, with a body like the real service's (FastAPI `{"detail": ...}`). */
  scenarioAnswers: ScenarioAnswers;
  /** Made once per mock from its settled options: answers a request, the scenario's code with `scenarioAnswers`. */
  handler(config: MockConfig, answers: ScenarioAnswers): OperationHandler;
}

export const mockOperations: { readonly [K in OperationId]: MockOperation } = {
  fetchHumanEvaluation: {
    scenarioAnswers: {
      ...commonAnswers,
      404: new HttpProblem(404, 'Evaluation not found'),
      422: new HttpProblem(422, [
        { loc: ['path', 'evaluation_id'], msg: 'invalid evaluation id', type: 'value_error' },
      ]),
      500: new HttpProblem(500, 'An error occurred while fetching the human evaluation'),
    },
    handler(config, answers) {
      const { fixtures, strictIds, clock } = config;
      const fetchOne = fetchHumanEvaluation({ fixtures, strictIds, clock, answers });
      return (params, request, headers, context) => fetchOne(params.evaluation_id as string, request, headers, context);
    },
  },
  createEvaluations: {
    scenarioAnswers: {
      ...commonAnswers,
      404: new HttpProblem(404, 'App not found'),
      422: new HttpProblem(422, [{ loc: ['body', 'rate_limit'], msg: 'field required', type: 'value_error.missing' }]),
      500: new HttpProblem(500, 'An error occurred while creating evaluations'),
    },
    handler(config, answers) {
      const create = createEvaluations(config.clock, answers);
      return (_params, request, headers, context) => {
        const body = readServiceBody(request);
        return body instanceof Promise
          ? body.then((parsed) => create(parsed, request, headers, context))
          : create(body, request, headers, context);
      };
    },
  },
};
