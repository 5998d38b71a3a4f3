import { evaluationsForRequest, seedFrom } from '../../generators/index.js';
import { serviceEras } from '../../generators/vocabulary.js';
import type { CreateEvaluationRequest } from '../../schemas/types/resources.js';
import { validate } from '../../schemas/validators/index.js';
import { withNotes, type MockAnswer, type MockRequest } from './request-answer.js';
import { requestMoment, type Clock } from './clock.js';
import { HttpProblem } from './errors.js';
import { createRequestLimits } from './limits.js';
import { asScenarioSends } from './outside-spec.js';
import { withoutNullOptionals } from './nullable.js';
import { requestScenario, respond } from './respond.js';
import type { ScenarioHolder } from './scenario-book.js';
import type { ResolvedScenario } from './scenarios.js';
import { serialize } from './serialize.js';
import { listedProblems, validationDetail } from './validation-detail.js';

/**
 * The state a new evaluation is served in when no scenario sets one: the service answers at once and computes in the
 * background, so right after creation the status is EVALUATION_INITIALIZED, aggregated_results is empty and no cost
 * or latency exists yet (domain notes, "Semantics"). A client built against this default handles the real first answer.
 */
export const defaultCreatedState = 'EVALUATION_INITIALIZED';

/**
 * One Evaluation per requested variant, coherent with the request; seeded by it, so the same request gets the same
 * answer.
 */
function evaluationsFor(sent: unknown, scenario: ResolvedScenario, clock: Clock, notes: string[]): Uint8Array {
  // A null optional field reads as absent, as the real service reads it, unless the scenario asks for the letter; the
  // journal notes each one, so a team sees what its client sends. The note names the field, never a value.
  let body = sent;
  if (!scenario.strictNulls) {
    const read = withoutNullOptionals('CreateEvaluationRequest', sent);
    body = read.body;
    for (const field of read.absent) notes.push(`${field}: null read as absent`);
  }
  // The limits first: a list over its limit is answered before schema validation would word a problem per item.
  const limits = createRequestLimits(body);
  if (limits.overCount) throw new HttpProblem(422, listedProblems(limits.detail));
  const result = validate('CreateEvaluationRequest', body);
  if (!result.valid || limits.detail.length > 0) {
    const detail = [...validationDetail('CreateEvaluationRequest', result.issues, body), ...limits.detail];
    throw new HttpProblem(422, listedProblems(detail, result.issues.length + limits.detail.length));
  }
  const request = body as CreateEvaluationRequest;
  // Only ids go on from here: lm_providers_keys is neither passed on nor kept.
  const { app_id, testset_id, variant_ids, evaluators_configs } = request;
  const era = scenario.era === undefined ? undefined : serviceEras[scenario.era];
  const state = scenario.state ?? era?.createdState ?? defaultCreatedState;
  // Neither the state nor the moment is part of the seed: another state answers the same Evaluations (names, dates,
  // configs) in that state, and the same request at another moment the same bytes but for the Evaluations' moments
  // (and the time inside their ids, which the service takes from the moment): the user, revisions and configs a call
  // refers to stay put.
  const seed = seedFrom(
    scenario.seed,
    app_id,
    testset_id,
    variant_ids.join('\u0000'),
    evaluators_configs.join('\u0000'),
  );
  const evaluations = evaluationsForRequest(
    seed,
    { app_id, testset_id, variant_ids, evaluators_configs },
    { profile: scenario.profile, state, createdAt: requestMoment(scenario, clock), idStyle: era?.idStyle },
  );
  return serialize(evaluations.map((evaluation) => asScenarioSends('Evaluation', evaluation, scenario)));
}

export type CreateEvaluations = (
  body: unknown,
  request: MockRequest,
  headers: Record<string, string>,
) => MockAnswer | Promise<MockAnswer>;

/** POST /evaluations, once the body is read and parsed. */
export function createEvaluations(scenarios: ScenarioHolder, clock: Clock): CreateEvaluations {
  return (body, request, headers) => {
    const scenario = requestScenario(request, headers, scenarios.current.forOperation('createEvaluations'));
    const notes: string[] = [];
    const answered = respond(scenario, 'createEvaluations', headers, () =>
      evaluationsFor(body, scenario, clock, notes),
    );
    return withNotes(answered, notes);
  };
}
