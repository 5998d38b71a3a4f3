import type { ResourceName } from '../../schemas/index.js';
import { formatIssue, validate, type ValidationIssue } from '../../schemas/validators/index.js';
import type { OperationKey } from '../catalogue.js';
import { isJsonMediaType, mediaType } from '../../http/media-type.js';
import { type Exchange } from '../../http/exchange.js';
import { maxValidatedItems, readJsonBody, validatedView } from '../../http/json-body.js';
import { periodFinding } from '../instants.js';
import { valueAt } from '../../schemas/validators/json-pointer.js';
import { isOptionalProperty, undeclaredFields, variantArrays } from '../schema-walk.js';
import { isSuccess } from '../session.js';
import type { Verdicts } from '../verdicts.js';

/** An optional field sent as null: the spec's types exclude null, but real deployments do it (a warning, not an error). */
function isOptionalNull(name: ResourceName, data: unknown, issue: ValidationIssue): boolean {
  return (
    issue.keyword === 'type' && valueAt(data, issue.pointer) === null && isOptionalProperty(name, data, issue.pointer)
  );
}

/** A record's validation issues, split into errors and optional fields sent as null. */
export function schemaIssues(
  name: ResourceName,
  record: unknown,
): { errors: ValidationIssue[]; nulls: ValidationIssue[]; cuts: string[] } {
  const { view, cuts } = validatedView(record);
  const { issues } = validate(name, view);
  const nulls = issues.filter((issue) => isOptionalNull(name, view, issue));
  return { errors: issues.filter((issue) => !nulls.includes(issue)), nulls, cuts };
}

/** Where a request's ids came from when nobody vouched they exist there, and what to pass instead: a 4xx is then no finding. */
export interface Unvouched {
  what: string;
  remedy: string;
}

/**
 * Whether an answer to a request that should succeed is a success worth checking further, recording the
 * operation's status check. Transport failures and 5xx have their own checks. A 4xx for a generated id or body is
 * no finding, since a real deployment lacks generated ids: `generated` names what was made up and what to pass instead.
 */
export function acceptedSuccess(
  verdicts: Verdicts,
  operation: OperationKey,
  label: string,
  exchange: Exchange,
  generated: Unvouched | undefined,
): boolean {
  if (exchange.failure || exchange.status === undefined || exchange.status >= 500) return false;
  if (isSuccess(exchange)) {
    verdicts.pass(`${operation}.status.success`);
    return true;
  }
  if (generated)
    verdicts.skip(
      `${operation}.status.success`,
      `${generated.what} was answered ${exchange.status}; ${generated.remedy}`,
    );
  else verdicts.fail(`${operation}.status.success`, `${label} answered ${exchange.status}`);
  return false;
}

/**
 * The checks every success body gets: JSON Content-Type, JSON at all. Resolves to the parsed body, or undefined
 * when there is nothing to check further.
 */
export function parseSuccessBody(
  verdicts: Verdicts,
  operation: OperationKey,
  label: string,
  exchange: Exchange,
): { data: unknown } | undefined {
  const type = mediaType(exchange.headers);
  verdicts.expect(
    `${operation}.content-type`,
    isJsonMediaType(type) ? undefined : `${label}: success with Content-Type ${type ?? '(none)'}`,
  );
  verdicts.expect(
    `${operation}.body.bom`,
    exchange.encoding === 'bom' ? `${label}: the success body starts with a byte order mark` : undefined,
  );
  const read = readJsonBody(exchange);
  if ('problem' in read) {
    verdicts.fail(`${operation}.body.json`, `${label}: ${read.problem.replace(/^the body/, 'the success body')}`);
    return undefined;
  }
  verdicts.pass(`${operation}.body.json`);
  return read;
}

/** Issues listed in one finding: a body with 300,000 wrong items gets the first few and the count. */
const listedIssues = 10;

export function listed(items: string[], what: string): string {
  return items.length <= listedIssues
    ? items.join(', ')
    : `${items.slice(0, listedIssues).join(', ')} (${items.length} ${what} in all)`;
}

/**
 * Validates one record. Issues that are only optional fields sent as null go to the nulls warning; any other
 * issue is a schema error. Undeclared fields become notes. The record-level warnings (variant arrays,
 * timestamps) follow, since they read the same record.
 */
export function checkRecord(
  verdicts: Verdicts,
  operation: OperationKey,
  name: ResourceName,
  record: unknown,
  where: string,
): void {
  const { errors, nulls, cuts } = schemaIssues(name, record);
  if (cuts.length > 0)
    verdicts.note(
      operation,
      `${where}: only the first ${maxValidatedItems} items of ${listed(cuts, 'arrays')} were validated`,
    );
  verdicts.expect(
    `${operation}.body.schema`,
    errors.length > 0 ? `${where}: ${listed(errors.map(formatIssue), 'issues')}` : undefined,
  );
  verdicts.expect(
    `${operation}.body.nulls`,
    nulls.length > 0
      ? `${where}: optional ${listed(
          nulls.map((issue) => issue.pointer),
          'fields',
        )} sent as null`
      : undefined,
  );
  for (const pointer of undeclaredFields(name, record)) {
    // Indices vary per record; the note is about the field.
    verdicts.note(
      operation,
      `undocumented field ${pointer.replace(/\/\d+(?=\/|$)/g, '/*')} (allowed: responses may carry extra fields)`,
    );
  }
  if (record === null || typeof record !== 'object' || Array.isArray(record)) return;
  const fields = record as Record<string, unknown>;
  verdicts.expect(`${operation}.body.timestamps`, periodFinding(fields, where));
  const lengths = variantArrays(name)
    .filter((key) => Array.isArray(fields[key]))
    .map((key) => `${key} ${(fields[key] as unknown[]).length}`);
  const distinct = new Set(lengths.map((entry) => entry.split(' ')[1]));
  verdicts.expect(
    `${operation}.body.variants`,
    distinct.size > 1 ? `${where}: variant arrays of unequal length (${lengths.join(', ')})` : undefined,
  );
}
