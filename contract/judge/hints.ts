import type { ValidationIssue } from '../../schemas/validators/index.js';
import { valueAt } from '../../schemas/validators/json-pointer.js';
import { apiKey } from '../../api/openapi-document.js';
import { capped } from '../../http/excerpt.js';
import type { Observation } from './observation.js';

/** Characters of a received value a hint quotes: enough to recognise it, never a whole body. */
const quotedChars = 80;

/** An RFC 3339 date-time in its plainest form, the one a fix can copy. */
const dateTimeExample = '2024-05-06T07:08:09Z';

/**
 * The fix for a 5xx, by what the request was for: an unknown id is answered as FastAPI's services answer it (domain
 * notes: `{"detail": "App not found"}` for 404s), an invalid body as FastAPI validates one.
 */
export function serverErrorHint(seen: Observation): string | undefined {
  switch (seen.sent.role.kind) {
    case 'unknown-id':
      return 'answer 404 with a JSON `detail` for an id that does not exist, e.g. {"detail": "Evaluation not found"}';
    case 'invalid':
      return 'answer 422 with a JSON `detail` naming what is wrong with the request, as FastAPI does';
    case 'expected':
      return 'this request is valid: the server log of this request holds the cause';
    default:
      return undefined;
  }
}

function received(value: unknown): string {
  if (value === undefined) return 'nothing';
  const kind = value === null ? '' : `${Array.isArray(value) ? 'array' : typeof value} `;
  return `${kind}${capped(JSON.stringify(value), quotedChars)}`;
}

/**
 * The fix for one schema issue: the pointer, the value received there and what the schema expects instead, keyed on
 * the issue's keyword and format, never on its words.
 */
export function issueHint(record: unknown, issue: ValidationIssue): string {
  const pointer = issue.pointer || '(the record)';
  if (issue.keyword === 'required') return `add ${pointer}: the schema requires it`;
  const value = received(valueAt(record, issue.pointer));
  if (issue.keyword === 'format' && issue.format === 'date-time')
    return `${pointer}: received ${value}; send an RFC 3339 date-time (a T and an offset), e.g. ${dateTimeExample}`;
  return `${pointer}: received ${value}; the schema says it ${issue.message}`;
}

/** The fix for a success body's first schema issue. */
export function schemaHint(seen: Observation): string | undefined {
  for (const { value, issues } of seen.records()) {
    const [first] = issues.errors;
    if (first) return issueHint(value, first);
  }
  return undefined;
}

/**
 * The fix for a run whose every request was refused as if unauthenticated: the document `evalkit openapi` writes
 * declares an API key in the Authorization header (the hosted service takes one), shown as a placeholder.
 */
export function credentialsHint(statuses: readonly number[]): string | undefined {
  if (statuses.length === 0 || !statuses.every((status) => status === 400 || status === 401 || status === 403))
    return undefined;
  const wants = statuses.some((status) => status !== 400) ? 'wants' : 'may want';
  return (
    `the deployment ${wants} credentials (the OpenAPI document declares an API key in the ${apiKey.name} header): ` +
    `pass them with --header "${apiKey.name}: Bearer $TOKEN"`
  );
}
