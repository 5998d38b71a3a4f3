import { credentialField } from '../../api/credentials.js';
import { serviceEras, newestRelease, type ServiceEra } from '../../generators/vocabulary.js';
import { schemas, type ResourceName } from '../../schemas/index.js';
import { pointerTokens } from '../../schemas/validators/json-pointer.js';
import { validate } from '../../schemas/validators/index.js';
import { HttpProblem, type ValidationDetail } from './errors.js';
import { createRequestLimits, maxListedProblems } from './limits.js';
import { validateModel, type Problem } from './pydantic.js';
import { jsonInvalid, maxEchoCharacters, unlisted, worded, type EchoBudget, type Limit } from './pydantic-words.js';
import type { ServiceBody } from './request-body.js';
import type { Scenario } from './scenarios.js';

/** The release a scenario answers as: its era's, or where no era is set the newest release's (any key name). */
export function releaseOf(scenario: Scenario): ServiceEra {
  return scenario.era === undefined ? newestRelease : serviceEras[scenario.era];
}

/** Where the release's provider key names apply, made once per list rather than per request. */
const keyNamesByList = new WeakMap<readonly string[], ReadonlyMap<string, readonly string[]>>();

function keyNamesOf(names: readonly string[]): ReadonlyMap<string, readonly string[]> {
  let byLocation = keyNamesByList.get(names);
  if (!byLocation) keyNamesByList.set(names, (byLocation = new Map([[`body.${credentialField}`, names]])));
  return byLocation;
}

/**
 * The detail a 422 sends: at most the first maxListedProblems problems, then one entry counting the rest, so the
 * answer stays small whatever the body holds and a client reading `detail` as a list still can.
 */
function listedProblems(release: ServiceEra, detail: ValidationDetail[], total = detail.length): ValidationDetail[] {
  if (total <= maxListedProblems) return detail;
  return [
    ...detail.slice(0, maxListedProblems),
    unlisted(release.validation, total - maxListedProblems, maxListedProblems),
  ];
}

/**
 * A request body read as the release reads it (its validation stack, the provider key names it takes): the body with
 * what the stack coerces coerced, or the 422 the release answers, in its words. The mock's own limits (limits.ts) come
 * first when a list or map is over its count, else after the model's problems.
 */
export function readAsRelease(resource: ResourceName, body: ServiceBody, scenario: Scenario): unknown {
  const release = releaseOf(scenario);
  const stack = release.validation;
  const budget: EchoBudget = { left: maxEchoCharacters };
  const word = (problem: Problem | Limit) => worded(stack, problem, budget);
  const refuse = (detail: ValidationDetail[], total?: number) => {
    throw new HttpProblem(422, listedProblems(release, detail, total));
  };
  if (body.kind === 'refused') refuse([jsonInvalid(body.position, body.error)]);
  if (body.kind === 'none') refuse([word({ kind: 'missing', loc: ['body'], input: null })]);
  if (body.kind === 'text')
    refuse([worded(stack, { kind: 'model_type', loc: ['body'], input: body.text, expects: 'model' }, budget, true)]);
  const value = body.kind === 'json' ? body.value : undefined;
  const limits = createRequestLimits(value);
  if (limits.overCount) refuse(limits.problems.map(word));
  const read = validateModel(schemas[resource], value, {
    stack,
    strictNulls: scenario.strictNulls ?? false,
    ...(release.providerKeyNames && { keyNames: keyNamesOf(release.providerKeyNames) }),
  });
  const problems = [...read.problems, ...limits.problems];
  if (problems.length > 0) {
    const detail = problems.slice(0, maxListedProblems).map(word);
    refuse(detail, problems.length);
  }
  // What the model let through must be what the schema allows; a gap between the two is the mock's to show, not hide.
  const result = validate(resource, read.value);
  if (!result.valid)
    refuse(
      result.issues.map((issue) => ({
        loc: ['body', ...pointerTokens(issue.pointer)],
        msg: issue.message,
        type: `value_error.${issue.keyword}`,
      })),
    );
  return read.value;
}
