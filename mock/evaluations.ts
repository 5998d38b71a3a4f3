import type { RequestHandler } from 'express';
import { evaluationsForRequest, seedFrom } from '../fixtures/generators/index.js';
import { requiredProperties, schemas, type JsonSchema } from '../schemas/index.js';
import type { CreateEvaluationRequest } from '../schemas/types/resources.js';
import { validate } from '../schemas/validators/index.js';
import { HttpProblem, type ValidationDetail } from './errors.js';
import { maxIdLength, maxListItems } from './limits.js';
import { withNulls } from './nullable.js';
import { requestScenario, respond } from './respond.js';
import type { ScenarioBook } from './scenario-book.js';
import type { ResolvedScenario } from './scenarios.js';
import { serialize } from './send.js';
import { validationDetail } from './validation-detail.js';

/**
 * The state a new evaluation is served in when no scenario sets one: the service answers at once and computes in the
 * background, so right after creation the status is EVALUATION_INITIALIZED, aggregated_results is empty and no cost
 * or latency exists yet (domain notes, "Semantics"). A client built against this default handles the real first answer.
 */
export const defaultCreatedState = 'EVALUATION_INITIALIZED';

const requestProperties = Object.entries(schemas.CreateEvaluationRequest.properties as Record<string, JsonSchema>);
const required = new Set(requiredProperties('CreateEvaluationRequest'));
/** The ids a request names, read off its schema: its required strings, and its lists (of ids, all of them). */
const idFields = requestProperties.filter(([name, schema]) => schema.type === 'string' && required.has(name)).map(([name]) => name);
const listFields = requestProperties.filter(([, schema]) => schema.type === 'array').map(([name]) => name);

/** The mock's size limits on a schema-valid request (limits.ts), as FastAPI would word them. */
function limitDetail(request: CreateEvaluationRequest): ValidationDetail[] {
  const detail: ValidationDetail[] = [];
  const tooLong = (loc: Array<string | number>) =>
    detail.push({ loc: ['body', ...loc], msg: `ensure this value has at most ${maxIdLength} characters`, type: 'value_error.any_str.max_length' });
  // The request is schema-valid here: its id fields are strings, its lists arrays of strings.
  const fields = request as Record<string, unknown>;
  for (const field of idFields) if ((fields[field] as string).length > maxIdLength) tooLong([field]);
  for (const field of listFields) {
    const list = fields[field] as string[];
    if (list.length > maxListItems) {
      detail.push({ loc: ['body', field], msg: `ensure this value has at most ${maxListItems} items`, type: 'value_error.list.max_items' });
    } else {
      for (const [index, id] of list.entries()) if (id.length > maxIdLength) tooLong([field, index]);
    }
  }
  return detail;
}

/** One Evaluation per requested variant, coherent with the request; seeded by it, so the same request gets the same answer. */
function evaluationsFor(body: unknown, scenario: ResolvedScenario): Buffer {
  const result = validate('CreateEvaluationRequest', body);
  if (!result.valid) throw new HttpProblem(422, validationDetail('CreateEvaluationRequest', result.issues, body));
  const request = body as CreateEvaluationRequest;
  const overLimits = limitDetail(request);
  if (overLimits.length > 0) throw new HttpProblem(422, overLimits);
  // Only ids go on from here: lm_providers_keys is neither passed on nor kept.
  const { app_id, testset_id, variant_ids, evaluators_configs } = request;
  const state = scenario.state ?? defaultCreatedState;
  // The state is not part of the seed: another state answers the same Evaluations (names, dates, configs) in that state.
  const seed = seedFrom(scenario.seed, app_id, testset_id, variant_ids.join('\u0000'), evaluators_configs.join('\u0000'));
  const evaluations = evaluationsForRequest(seed, { app_id, testset_id, variant_ids, evaluators_configs }, { profile: scenario.profile, state });
  return serialize(scenario.nullable ? evaluations.map((evaluation) => withNulls('Evaluation', evaluation)) : evaluations);
}

/** POST /evaluations, after jsonBody has parsed the request. */
export function createEvaluations(scenarios: ScenarioBook): RequestHandler {
  return (req, res) => {
    const scenario = requestScenario(req, res, scenarios.forOperation('createEvaluation'));
    return respond(res, scenario, 'createEvaluation', () => evaluationsFor(req.body, scenario));
  };
}
