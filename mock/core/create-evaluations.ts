import type { ScenarioAnswers } from './scenario-answers.js';
import { evaluationsForRequest, evaluatorKeysForRequest, seedFrom } from '../../generators/index.js';
import { keyedEvaluators, serviceEras, type EvaluatorKey } from '../../generators/vocabulary.js';
import { HttpProblem } from './errors.js';
import type { CreateEvaluationRequest } from '../../schemas/types/resources.js';
import { withNotes, type MockAnswer, type MockRequest } from './request-answer.js';
import { requestMoment, type Clock } from './clock.js';
import { asScenarioSends } from './outside-spec.js';
import { withoutNullOptionals } from './nullable.js';
import { requestScenario, respond } from './respond.js';
import type { ResolvedScenario } from './scenarios.js';
import type { RequestContext } from './sessions.js';
import { serialize } from './serialize.js';
import type { ServiceBody } from './request-body.js';
import { readAsRelease } from './release-reading.js';

/**
 * The state a new evaluation is served in when no scenario sets one: the service answers at once and computes in the
 * background, so right after creation the status is EVALUATION_INITIALIZED, aggregated_results is empty and no cost
 * or latency exists yet (domain notes, "Semantics"). A client built against this default handles the real first answer.
 */
export const defaultCreatedState = 'EVALUATION_INITIALIZED';

/** The service's answer to a create whose AI critique config has no provider key to call a model with. */
const missingProviderKey = new HttpProblem(400, 'Missing LM provider Key');

/**
 * One Evaluation per requested variant, coherent with the request; seeded by it, so the same request gets the same
 * answer.
 */
function evaluationsFor(sent: ServiceBody, scenario: ResolvedScenario, clock: Clock, notes: string[]): Uint8Array {
  // A null optional field reads as absent, as the real service reads it, unless the scenario asks for the letter; the
  // journal notes each one, so a team sees what its client sends. The note names the field, never a value.
  if (!scenario.strictNulls && sent.kind === 'json')
    for (const field of withoutNullOptionals('CreateEvaluationRequest', sent.value).absent)
      notes.push(`${field}: null read as absent`);
  const request = readAsRelease('CreateEvaluationRequest', sent, scenario) as CreateEvaluationRequest;
  // Only ids go on from here, and whether keys were sent: lm_providers_keys is neither passed on nor kept.
  const { app_id, testset_id, variant_ids, evaluators_configs } = request;
  const keysSent = Object.keys(request.lm_providers_keys ?? {}).length > 0;
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
  const ids = { app_id, testset_id, variant_ids, evaluators_configs };
  const createdAt = requestMoment(scenario, clock);
  const options = { profile: scenario.profile, state, createdAt, idStyle: era?.idStyle };
  // The service looks each config up before it starts: an AI critique with no provider key is refused.
  if (!keysSent && evaluators_configs.length > 0) {
    const keys = evaluatorKeysForRequest(seed, ids, options);
    if ([...keys.values()].some((key) => keyedEvaluators.has(key as EvaluatorKey))) throw missingProviderKey;
  }
  const evaluations = evaluationsForRequest(seed, ids, options);
  return serialize(evaluations.map((evaluation) => asScenarioSends('createEvaluations', evaluation, scenario)));
}

export type CreateEvaluations = (
  body: ServiceBody,
  request: MockRequest,
  headers: Record<string, string>,
  context: RequestContext,
) => MockAnswer | Promise<MockAnswer>;

/** POST /evaluations, once the body is read and parsed. */
export function createEvaluations(clock: Clock, answers: ScenarioAnswers): CreateEvaluations {
  return (body, request, headers, context) => {
    const scenario = requestScenario(
      request,
      headers,
      context.scenarios.forOperation('createEvaluations'),
      'createEvaluations',
    );
    const notes: string[] = [];
    const answered = respond(scenario, answers, headers, () => evaluationsFor(body, scenario, clock, notes));
    return withNotes(answered, notes);
  };
}
