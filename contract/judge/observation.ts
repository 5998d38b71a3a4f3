import { operationByKey, type OperationKey } from '../../api/operations.js';
import type { ResourceName } from '../../schemas/index.js';
import { isJsonObject as isObject } from '../../schemas/json-object.js';
import { validate, type ValidationIssue } from '../../schemas/validators/index.js';
import { valueAt } from '../../schemas/validators/json-pointer.js';
import { excerpt } from '../../http/excerpt.js';
import { isSuccessStatus, type Received } from '../../http/exchange.js';
import { describeNesting, readJsonBody, validatedView, type JsonProblem } from '../../http/json-body.js';
import { fieldsOf, isOptionalProperty, openPositionOf, type SchemaField } from './schema-walk.js';
import { labelOf, type Sent } from './sent.js';

export type Fields = Record<string, unknown>;

export function isSuccess(exchange: Received): boolean {
  return !exchange.failure && isSuccessStatus(exchange.status);
}

/**
 * A 5xx in words: a server error with its status and what its body says, never a transport failure; `expected`: the
 * answer the request was for (`a 4xx` for an invalid one), so a 500 to a probe does not read like a 500 to a valid
 * request.
 */
export function serverErrorFinding(exchange: Received, expected?: string): string {
  const instead = expected ? ` where ${expected} was expected` : '';
  return `answered ${exchange.status} (a server error)${instead}: ${excerpt(exchange.body, exchange.bodyBytes)}`;
}

/**
 * An optional field sent as null: the spec's types exclude null, but real deployments do it (a warning, not an
 * error).
 */
function isOptionalNull(name: ResourceName, data: unknown, issue: ValidationIssue): boolean {
  return (
    issue.keyword === 'type' && valueAt(data, issue.pointer) === null && isOptionalProperty(name, data, issue.pointer)
  );
}

export interface SchemaIssues {
  errors: ValidationIssue[];
  /** Optional fields sent as null. */
  nulls: ValidationIssue[];
  /** Arrays cut to the validated length. */
  cuts: string[];
}

/** A record's validation issues, split into errors and optional fields sent as null. */
export function schemaIssues(name: ResourceName, record: unknown): SchemaIssues {
  const { view, cuts } = validatedView(record);
  const { issues } = validate(name, view);
  const nulls = issues.filter((issue) => isOptionalNull(name, view, issue));
  return { errors: issues.filter((issue) => !nulls.includes(issue)), nulls, cuts };
}

/** Where a success body nests deeper than evalkit walks, in a position whose shape the spec leaves open. */
interface OpenNesting {
  /** The open position, as a JSON pointer into the body. */
  position: string;
  /** How many levels deep the body nests there. */
  levels: number;
}

export type SuccessBody = { data: unknown; deep: OpenNesting[] } | JsonProblem;

/**
 * A success body of an operation read as JSON. Nesting deeper than evalkit walks is the problem of a typed position
 * (an id, a record, the body itself: the schema gives its shape, and no record nests that deep); where the spec
 * leaves the shape open it is allowed, listed in `deep`, and the rest of the body is checked with the deep values
 * cut out.
 */
export function readSuccessBody(exchange: Received, operation: OperationKey): SuccessBody {
  const read = readJsonBody(exchange);
  if ('problem' in read) return read;
  const { resource, array } = operationByKey(operation).response;
  const deep: OpenNesting[] = [];
  for (const place of read.deep) {
    const position = openPositionOf(resource, array, read.data, place.tokens);
    if (position === undefined)
      return { problem: `the body is ${describeNesting(place)}: not checked further`, kind: 'nested too deep' };
    const known = deep.find((nesting) => nesting.position === position);
    if (known) known.levels = Math.max(known.levels, place.levels);
    else deep.push({ position, levels: place.levels });
  }
  return { data: read.data, deep };
}

/** One record of a success body, where the report says it is, and its validation issues (computed once). */
export interface BodyRecord {
  value: unknown;
  where: string;
  issues: SchemaIssues;
  /** Its fields as the schema sees them (fieldsOf), walked once for the notes and the coverage alike. */
  schemaFields(): SchemaField[];
}

/**
 * One exchange as the checks read it: what was sent and why, what came back, and views of the answer computed once
 * however many checks read them (the parsed body, its records and their validation issues).
 */
export class Observation {
  readonly label: string;
  /** The resource a success body holds (one, or an array of them). */
  readonly resource: ResourceName;
  private read: SuccessBody | undefined;
  private recordList: BodyRecord[] | undefined;

  constructor(
    readonly sent: Sent,
    readonly exchange: Received,
    /** The secret values sent (canaries, watched credentials), scanned for in every answer. */
    readonly secrets: readonly string[],
  ) {
    this.label = labelOf(sent.outgoing);
    this.resource = operationByKey(sent.operation).response.resource;
  }

  get status(): number | undefined {
    return this.exchange.status;
  }

  /** An answer arrived whole. */
  get complete(): boolean {
    return !this.exchange.failure && this.exchange.status !== undefined;
  }

  get success(): boolean {
    return isSuccess(this.exchange);
  }

  /** A success answer to a request that should succeed: its body is checked. */
  get accepted(): boolean {
    return this.sent.role.kind === 'expected' && this.success;
  }

  /** The accepted answer's body, parsed, or why it is not JSON. */
  body(): SuccessBody | undefined {
    if (!this.accepted) return undefined;
    this.read ??= readSuccessBody(this.exchange, this.sent.operation);
    return this.read;
  }

  /** The accepted answer's parsed body; undefined when there is none or it is not JSON. */
  data(): { data: unknown } | undefined {
    const read = this.body();
    return read && !('problem' in read) ? read : undefined;
  }

  /** The records of the parsed body: the one record of a fetch, each item of a create's array (none if no array). */
  records(): BodyRecord[] {
    if (this.recordList) return this.recordList;
    const parsed = this.data();
    const { array } = operationByKey(this.sent.operation).response;
    const values = !parsed ? [] : !array ? [parsed.data] : Array.isArray(parsed.data) ? parsed.data : [];
    this.recordList = values.map((value, index) => {
      let fields: SchemaField[] | undefined;
      return {
        value,
        where: array ? `${this.label} /${index}` : this.label,
        issues: schemaIssues(this.resource, value),
        schemaFields: () => (fields ??= fieldsOf(this.resource, value)),
      };
    });
    return this.recordList;
  }

  /** The records that are JSON objects, with their fields. */
  objectRecords(): Array<BodyRecord & { fields: Fields }> {
    return this.records().flatMap((record) => (isObject(record.value) ? [{ ...record, fields: record.value }] : []));
  }
}
