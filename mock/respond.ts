import type { Request, Response } from 'express';
import { deliverFault } from './faults.js';
import { HttpProblem } from './errors.js';
import { waitLatency } from './latency.js';
import type { Operation } from './operations.js';
import { scenarioAnswer } from './scenario-answers.js';
import { formatScenario, parsePrefer, ScenarioError, type ResolvedScenario } from './scenarios.js';
import { sendJson } from './send.js';

/**
 * The scenario of one request: the server's, overridden key by key by a `Prefer` header. The keys applied go back in
 * Preference-Applied (RFC 7240), so a client can see the mock honoured them.
 */
export function requestScenario(req: Request, res: Response, base: ResolvedScenario): ResolvedScenario {
  const header = req.headers.prefer;
  if (header === undefined) return base;
  // Node joins repeated Prefer headers with commas, which parsePrefer reads as separate preferences.
  let preferred;
  try {
    preferred = parsePrefer(String(header));
  } catch (error) {
    throw new HttpProblem(400, (error as ScenarioError).message);
  }
  const applied = formatScenario(preferred);
  if (applied !== '') res.setHeader('Preference-Applied', applied);
  return { ...base, ...preferred };
}

function answer(res: Response, scenario: ResolvedScenario, operation: Operation, body: () => Buffer): void {
  const problem = scenario.code !== undefined && scenario.code !== 200 ? scenarioAnswer(operation, scenario.code) : undefined;
  const status = problem?.status ?? 200;
  const payload = problem?.body ?? body();
  if (scenario.fault) deliverFault(res, scenario.fault, status, payload, problem?.headers);
  else sendJson(res, status, payload, problem?.headers);
}

/**
 * Answers a request as its scenario says: after the latency, the canned answer of a status code or else the
 * resource, delivered whole or broken by a fault. `body` may throw an HttpProblem (a 422), which the error handler
 * writes. Synchronous when there is no latency, so the common path allocates no promise.
 */
export function respond(res: Response, scenario: ResolvedScenario, operation: Operation, body: () => Buffer): void | Promise<void> {
  if (scenario.latency === undefined) return answer(res, scenario, operation, body);
  return waitLatency(scenario.latency).then(() => {
    // The client may have given up while the mock was waiting.
    if (!res.destroyed) answer(res, scenario, operation, body);
  });
}
