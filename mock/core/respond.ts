import { headerValue, jsonAnswer, problemAnswer, type MockAnswer, type MockRequest } from './request-answer.js';
import { HttpProblem } from './errors.js';
import { waitLatency } from './latency.js';
import type { OperationId } from '../../api/operations.js';
import { scenarioAnswer, type ScenarioAnswers } from './scenario-answers.js';
import { oneOperationKeys, type ScenarioKey } from '../../api/scenario-keys.js';
import { formatScenario, parsePrefer, ScenarioError, type ResolvedScenario } from './scenarios.js';

/**
 * The scenario of one request: the server's, overridden key by key by a `Prefer` header. The keys applied go back in
 * Preference-Applied (RFC 7240), so a client can see the mock honoured them.
 */
export function requestScenario(
  request: MockRequest,
  headers: Record<string, string>,
  base: ResolvedScenario,
  operation: OperationId,
): ResolvedScenario {
  // Repeated Prefer headers arrive joined with commas, which parsePrefer reads as separate preferences.
  const header = headerValue(request.headers, 'prefer');
  if (header === undefined) return base;
  let preferred;
  try {
    preferred = parsePrefer(header);
  } catch (error) {
    throw new HttpProblem(400, (error as ScenarioError).message);
  }
  const applies = (key: string) => (oneOperationKeys[key as ScenarioKey] ?? operation) === operation;
  const applied = formatScenario(Object.fromEntries(Object.entries(preferred).filter(([key]) => applies(key))));
  if (applied !== '') headers['Preference-Applied'] = applied;
  return { ...base, ...preferred };
}

function answer(
  scenario: ResolvedScenario,
  answers: ScenarioAnswers,
  headers: Record<string, string>,
  body: () => Uint8Array,
): MockAnswer {
  const problem =
    scenario.code !== undefined && scenario.code !== 200 ? scenarioAnswer(answers, scenario.code) : undefined;
  let settled: MockAnswer;
  try {
    settled = jsonAnswer(problem?.status ?? 200, problem?.body ?? body(), headers, problem?.headers, scenario.fault);
  } catch (error) {
    // A 422 of the body is answered here rather than by the core, so the journal still learns the scenario applied.
    if (!(error instanceof HttpProblem)) throw error;
    settled = problemAnswer(error, headers);
  }
  settled.scenario = scenario;
  return settled;
}

/**
 * Answers a request as its scenario says: after the latency, the canned answer of a status code or else the
 * resource, to be delivered whole or broken by a fault. `body` may throw an HttpProblem (a 422), which becomes the
 * answer. Synchronous when there is no latency, so the common path allocates no promise.
 */
export function respond(
  scenario: ResolvedScenario,
  answers: ScenarioAnswers,
  headers: Record<string, string>,
  body: () => Uint8Array,
): MockAnswer | Promise<MockAnswer> {
  if (scenario.latency === undefined) return answer(scenario, answers, headers, body);
  return waitLatency(scenario.latency).then(() => answer(scenario, answers, headers, body));
}
