import { operationByKey, operationOfKey, operationTable, type OperationKey } from '../../../api/operations.js';
import { declaredProperties, requiredProperties, type ResourceName } from '../../../schemas/index.js';
import { fieldPattern } from '../schema-walk.js';
import { formatIssue } from '../../../schemas/validators/index.js';
import { isJsonMediaType, mediaType } from '../../../http/media-type.js';
import { maxJsonDepth } from '../../../http/json-body.js';
import { defineCheck, finding, once, perItem, type Finding } from '../define.js';
import { anyIndex, issuesCause } from '../finding-id.js';
import { schemaHint, serverErrorHint } from '../hints.js';
import { periodFinding } from '../instants.js';
import { serverErrorFinding, type Observation } from '../observation.js';
import { variantArrayNames } from '../../../api/variant-arrays.js';

/** Issues listed in one finding: a body with 300,000 wrong items gets the first few and the count. */
const listedIssues = 10;

export function listed(items: string[], what: string): string {
  return items.length <= listedIssues
    ? items.join(', ')
    : `${items.slice(0, listedIssues).join(', ')} (${items.length} ${what} in all)`;
}

/**
 * The default nesting limits of common JSON parsers, largest first: what a client of the deployment would meet.
 * CPython's `json` recurses once per level up to `sys.getrecursionlimit()`, 1,000 by default (RecursionError); Ruby's
 * `JSON.parse` has `max_nesting` 100; .NET's System.Text.Json has `MaxDepth` 64 (JsonException); Go's encoding/json
 * scanner stops at 10,000 (`exceeded max depth`).
 */
const parserLimits = [
  { client: "Go's encoding/json", setting: 'max depth', levels: 10_000 },
  { client: "Python's json module", setting: 'recursion limit', levels: 1_000 },
  { client: "Ruby's JSON.parse", setting: 'max_nesting', levels: 100 },
  { client: ".NET's System.Text.Json", setting: 'MaxDepth', levels: 64 },
];

/** Which common clients refuse a body nested this deep, with their default limits. */
function unparsedBy(levels: number): string {
  const refusing = parserLimits.filter((limit) => levels > limit.levels);
  const named = refusing.map(
    ({ client, setting, levels: limit }) => `${client} (${setting} ${limit.toLocaleString('en-US')})`,
  );
  return `clients that refuse it by default: ${named.join(', ')}`;
}

/** The finding of a body that should be an array of records but is not an array at all. */
function notAnArray(seen: Observation, data: unknown): Finding | undefined {
  const { response } = operationTable[operationOfKey(seen.sent.operation)];
  if (!response.array || Array.isArray(data)) return undefined;
  const type = data === null ? 'null' : typeof data;
  return finding(`${seen.label}: the body is ${type}, not a JSON array of ${response.resource}`, 'not an array', type);
}

/** Null optional fields as a cause: their fields (indices and map keys as `*`), once each, in one order. */
export function nullsCause(resource: ResourceName, pointers: readonly string[]): string[] {
  return [...new Set(pointers.map((pointer) => fieldPattern(resource, pointer)))].sort();
}

/**
 * The lengths of a record's variant arrays as a cause: the arrays grouped by length, shortest first, never the
 * lengths themselves (how many variants a request names varies).
 */
function lengthOrder(lengths: ReadonlyArray<{ key: string; length: number }>): string {
  const distinct = [...new Set(lengths.map(({ length }) => length))].sort((a, b) => a - b);
  return distinct
    .map((length) =>
      lengths
        .filter((entry) => entry.length === length)
        .map(({ key }) => key)
        .join(' '),
    )
    .join(' < ');
}

/**
 * The checks every operation's answers get, one id per operation: a complete answer, no 5xx, and a success body that
 * is JSON, validates and holds together. The body checks read the records of a success answer to a request that
 * should succeed.
 */
export function responseChecks<const O extends OperationKey>(operation: O) {
  const definition = operationByKey(operation);
  const spec = `${definition.spec} "${definition.success}"`;
  const { resource, sections } = definition.response;
  /** The section of the record itself: the first of the sections its records span (`§2.2` of `§2.2-2.4`). */
  const recordSection = sections.split('-')[0] as string;
  const optional = declaredProperties(resource).some((field) => !requiredProperties(resource).includes(field));
  const nullsSpec = optional
    ? `${sections} optional fields are typed; null is not among the types`
    : `${sections} field types (all required today: a null there is a schema error)`;
  const mine = (seen: Observation) => seen.sent.operation === operation;
  /** Every answer but a property case's, which its property judges. */
  const judged = (seen: Observation) => mine(seen) && seen.sent.role.kind !== 'property';
  return [
    defineCheck({
      id: `${operation}.transport`,
      operation,
      severity: 'error',
      title:
        'Every request gets a complete answer: in time, within the size cap, no dropped connection, ' +
        'no redirect to another origin.',
      spec: `${spec} (an answer must arrive whole to be one)`,
      code: (seen) => {
        if (!judged(seen)) return undefined;
        const { failure } = seen.exchange;
        return once(failure ? finding(`${seen.label}: ${failure.message}`, failure.kind) : undefined);
      },
    }),
    defineCheck({
      id: `${operation}.status.5xx`,
      operation,
      severity: 'error',
      title: 'No request, valid or invalid, is answered with a 5xx.',
      spec: '§7 "Error status codes ... not shown": whatever the client sent, a 5xx is the server failing',
      code: (seen) => {
        if (!judged(seen) || seen.status === undefined) return undefined;
        if (seen.status < 500) return [];
        const expected = seen.sent.role.kind === 'invalid' ? 'a 4xx' : undefined;
        const answer = serverErrorFinding(seen.exchange, expected);
        return [{ subject: seen.label, answer, cause: [String(seen.status), ...(expected ? [expected] : [])] }];
      },
      hint: serverErrorHint,
    }),
    defineCheck({
      id: `${operation}.body.json`,
      operation,
      severity: 'error',
      title:
        `A success body is JSON: UTF-8, parseable, nested at most ${maxJsonDepth} levels deep ` +
        'except where the spec leaves the shape open.',
      spec:
        `${spec} (JSON exchanged between systems is UTF-8, RFC 8259 §8.1; no typed position nests that deep, and ` +
        'deeper bodies are not walked)',
      code: (seen) => {
        const read = mine(seen) ? seen.body() : undefined;
        if (read === undefined) return undefined;
        if (!('problem' in read)) return [];
        return [finding(`${seen.label}: ${read.problem.replace(/^the body/, 'the success body')}`, read.kind)];
      },
    }),
    defineCheck({
      id: `${operation}.body.depth`,
      operation,
      severity: 'warning',
      title:
        `Where the spec leaves the shape open, a success body nests at most ${maxJsonDepth} levels deep, ` +
        'as common clients can parse.',
      spec:
        '§2.3 Result.value, §2.4 settings_values and the undocumented evaluator_config alternatives, and extra ' +
        'fields: any JSON value (so deeper nesting is allowed, and only warned about)',
      code: (seen) => {
        const read = mine(seen) ? seen.body() : undefined;
        if (read === undefined || 'problem' in read) return undefined;
        return read.deep.map(({ position, levels }) =>
          finding(
            `${seen.label}: ${position} nests ${levels.toLocaleString('en-US')} levels deep; ${unparsedBy(levels)}`,
            anyIndex(position),
          ),
        );
      },
    }),
    defineCheck({
      id: `${operation}.body.bom`,
      operation,
      severity: 'warning',
      title: 'A success body starts without a byte order mark.',
      spec:
        'RFC 8259 §8.1 "Implementations MUST NOT add a byte order mark (U+FEFF) to the beginning of a ' +
        'networked-transmitted JSON text."',
      code: (seen) =>
        mine(seen) && seen.accepted
          ? once(
              seen.exchange.encoding === 'bom'
                ? finding(`${seen.label}: the success body starts with a byte order mark`)
                : undefined,
            )
          : undefined,
    }),
    defineCheck({
      id: `${operation}.body.schema`,
      operation,
      severity: 'error',
      title: 'A success body validates against the schema (required fields, types, RFC 3339 date-times).',
      spec,
      code: (seen) => {
        const parsed = mine(seen) ? seen.data() : undefined;
        if (!parsed) return undefined;
        const wrong = notAnArray(seen, parsed.data);
        if (wrong) return [wrong];
        return perItem(seen.records(), ({ where, issues: { errors } }) =>
          errors.length > 0
            ? { text: `${where}: ${listed(errors.map(formatIssue), 'issues')}`, cause: issuesCause(resource, errors) }
            : undefined,
        );
      },
      hint: schemaHint,
    }),
    defineCheck({
      id: `${operation}.body.nulls`,
      operation,
      severity: 'warning',
      title: 'Optional fields are absent rather than null (null is not their type).',
      spec: nullsSpec,
      code: (seen) =>
        mine(seen)
          ? perItem(seen.records(), ({ where, issues: { nulls } }) => {
              const pointers = nulls.map((issue) => issue.pointer);
              if (nulls.length === 0) return undefined;
              return {
                text: `${where}: optional ${listed(pointers, 'fields')} sent as null`,
                cause: nullsCause(resource, pointers),
              };
            })
          : undefined,
    }),
    defineCheck({
      id: `${operation}.content-type`,
      operation,
      severity: 'warning',
      title: 'A success answers with a JSON Content-Type.',
      spec,
      code: (seen) => {
        if (!mine(seen) || !seen.accepted) return undefined;
        const type = mediaType(seen.exchange.headers) ?? '(none)';
        return once(
          isJsonMediaType(type) ? undefined : finding(`${seen.label}: success with Content-Type ${type}`, type),
        );
      },
    }),
    defineCheck({
      id: `${operation}.body.variants`,
      operation,
      severity: 'warning',
      title: 'The variant arrays of a record have one length.',
      spec: `${recordSection} ${variantArrayNames(resource).join(', ')}`,
      code: (seen) => {
        if (!mine(seen)) return undefined;
        return perItem(seen.objectRecords(), ({ fields, where }) => {
          const lengths = variantArrayNames(seen.resource)
            .filter((key) => Array.isArray(fields[key]))
            .map((key) => ({ key, length: (fields[key] as unknown[]).length }));
          if (new Set(lengths.map(({ length }) => length)).size < 2) return undefined;
          const shown = lengths.map(({ key, length }) => `${key} ${length}`).join(', ');
          return finding(`${where}: variant arrays of unequal length (${shown})`, lengthOrder(lengths));
        });
      },
    }),
    defineCheck({
      id: `${operation}.body.timestamps`,
      operation,
      severity: 'warning',
      title: 'created_at is not later than updated_at (compared as instants).',
      spec: '§2.1/§2.2 created_at, updated_at: date-time',
      code: (seen) =>
        mine(seen) ? perItem(seen.objectRecords(), ({ fields, where }) => periodFinding(fields, where)) : undefined,
    }),
  ] as const;
}

/**
 * The status check of a request that should succeed. Transport failures and 5xx have their own checks. A 4xx for an
 * id or body nobody vouched for is no finding, since a real deployment lacks generated ids: the check is skipped,
 * saying what was made up and what to pass instead.
 */
export function statusSuccess<const O extends OperationKey>(operation: O, title: string, spec: string) {
  return defineCheck({
    id: `${operation}.status.success`,
    operation,
    severity: 'warning',
    title,
    spec,
    code: (seen) => {
      const { role } = seen.sent;
      if (seen.sent.operation !== operation || role.kind !== 'expected' || !seen.complete) return undefined;
      const status = seen.status as number;
      if (status >= 500) return undefined;
      if (seen.success) return [];
      if (role.unvouched) return { skip: `${role.unvouched.what} was answered ${status}; ${role.unvouched.remedy}` };
      return [finding(`${seen.label} answered ${status}`, String(status))];
    },
  });
}
