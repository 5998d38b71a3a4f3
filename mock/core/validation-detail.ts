import { schemas, type ResourceName } from '../../schemas/index.js';
import type { ValidationIssue } from '../../schemas/validators/index.js';
import { pointerTokens } from '../../schemas/validators/json-pointer.js';
import { schemaAt } from '../../schemas/walk.js';
import type { ValidationDetail } from './errors.js';
import { maxListedProblems } from './limits.js';

/** pydantic v1's words and error types for a value of the wrong JSON type, by the type the schema expects. */
const typeErrors: Record<string, { msg: string; type: string }> = {
  string: { msg: 'str type expected', type: 'type_error.str' },
  integer: { msg: 'value is not a valid integer', type: 'type_error.integer' },
  number: { msg: 'value is not a valid float', type: 'type_error.float' },
  boolean: { msg: 'value could not be parsed to a boolean', type: 'type_error.bool' },
  array: { msg: 'value is not a valid list', type: 'type_error.list' },
  object: { msg: 'value is not a valid dict', type: 'type_error.dict' },
};

/** The location of a pointer in FastAPI's style: property names as strings, list indices as integers. */
function locationOf(pointer: string, body: unknown): Array<string | number> {
  const loc: Array<string | number> = ['body'];
  let value = body;
  for (const token of pointerTokens(pointer)) {
    const index = Array.isArray(value) ? Number(token) : undefined;
    loc.push(index ?? token);
    value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[token] : undefined;
  }
  return loc;
}

/**
 * Our validation issues as the 422 `detail` list FastAPI sends. Messages name the rule, never the value sent, so a
 * credential in lm_providers_keys cannot come back in an answer. Only the issues that will be listed are worded.
 */
export function validationDetail(resource: ResourceName, issues: ValidationIssue[], body: unknown): ValidationDetail[] {
  return issues.slice(0, maxListedProblems).map((issue) => {
    const loc = locationOf(issue.pointer, body);
    if (issue.keyword === 'required') return { loc, msg: 'field required', type: 'value_error.missing' };
    if (issue.keyword === 'type') {
      const expected = schemaAt(schemas[resource], body, pointerTokens(issue.pointer))?.type;
      const known = typeof expected === 'string' ? typeErrors[expected] : undefined;
      if (known) return { loc, ...known };
    }
    return { loc, msg: issue.message, type: `value_error.${issue.keyword}` };
  });
}

/**
 * The detail a 422 sends: at most the first maxListedProblems problems, then one entry counting the rest, so the
 * answer stays small whatever the body holds and a client reading `detail` as a list still can.
 */
export function listedProblems(detail: ValidationDetail[], total = detail.length): ValidationDetail[] {
  if (total <= maxListedProblems) return detail;
  const rest = total - maxListedProblems;
  return [
    ...detail.slice(0, maxListedProblems),
    {
      loc: ['body'],
      msg: `${rest} more problem(s) not listed: the mock lists the first ${maxListedProblems}`,
      type: 'value_error.too_many_problems',
    },
  ];
}
