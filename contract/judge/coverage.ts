import { operationIds, operationTable, type OperationKey } from '../../api/operations.js';
import { declaredProperties, type ResourceName } from '../../schemas/index.js';
import { valueAt } from '../../schemas/validators/json-pointer.js';
import { capped } from '../../http/excerpt.js';
import { lifecycleStates } from '../../generators/vocabulary.js';
import type { Observation } from './observation.js';
import { documentedFields, type SchemaField } from './schema-walk.js';

/** How many answers one status got. */
interface StatusCount {
  status: number;
  count: number;
}

interface OperationCoverage {
  operation: OperationKey;
  /** Exchanges judged, with or without an answer. */
  exchanges: number;
  statuses: StatusCount[];
}

/** A documented response field: in how many records it was carried at all, and in how many as null. */
interface FieldCoverage {
  /** The resource and the path from it: `Evaluation.status.error.message`, `Evaluation.aggregated_results[].result`. */
  field: string;
  carried: number;
  null: number;
}

interface StateCoverage {
  /** Where the state is: `Evaluation.status.value`, `HumanEvaluation.status`. */
  field: string;
  /** The states the real service uses (generators/vocabulary.ts; the spec shows none), each seen or not. */
  values: Array<{ value: string; count: number }>;
  /** Values seen outside those, the first few. */
  others: Array<{ value: string; count: number }>;
}

/** A field's counts, and the last record that counted it, as carried and as null. */
interface FieldCount {
  carried: number;
  null: number;
  lastCarried: number;
  lastNull: number;
}

/** A create-request field: in how many requests it was sent, left out, and whether it took more than one value. */
interface RequestFieldCoverage {
  field: string;
  sent: number;
  absent: number;
  varied: boolean;
}

/** What a run exercised: read off the exchanges it judged, never a request of its own. */
export interface CoverageReport {
  operations: { documented: number; exercised: number; byOperation: OperationCoverage[] };
  responseFields: {
    documented: number;
    seen: number;
    /** Documented fields no record carried. */
    unseen: string[];
    /** Records read: the one of each fetch answer, each of a create answer's array. */
    records: Array<{ resource: ResourceName; count: number }>;
    fields: FieldCoverage[];
  };
  states: { known: number; seen: number; unseen: string[]; fields: StateCoverage[] };
  requestFields: {
    /** Valid create requests whose fields were read. */
    requests: number;
    /** Fields that took more than one value, or were sent and left out. */
    varied: string[];
    fields: RequestFieldCoverage[];
  };
}

/** Where each response resource keeps its state, and the states it takes. */
const stateFields: ReadonlyArray<{ resource: ResourceName; pointer: string; known: readonly string[] }> = (
  Object.keys(lifecycleStates) as Array<keyof typeof lifecycleStates>
).map((resource) => ({
  resource,
  pointer: lifecycleStates[resource].pointer,
  known: lifecycleStates[resource].states,
}));

/** Distinct values kept per state field beyond the known ones: a deployment's free text must not grow a report. */
const keptOtherStates = 20;

const responseResources = [...new Set(operationIds.map((id) => operationTable[id].response.resource))];
/** The create request's own fields; a nested one that changes shows as its field changing. */
const requestFieldNames = declaredProperties('CreateEvaluationRequest');

function fieldName(resource: ResourceName, path: string): string {
  return `${resource}.${path}`;
}

function stateField(resource: ResourceName, pointer: string): string {
  return fieldName(resource, pointer.slice(1).replaceAll('/', '.'));
}

function counts(map: Map<string, number>): Array<{ value: string; count: number }> {
  return [...map].map(([value, count]) => ({ value, count }));
}

function bump<K>(map: Map<K, number>, key: K): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

/**
 * The run's coverage, counted as each exchange is judged from what the judge already read (the status, the parsed
 * body's records, the create request the role carries): no body is parsed again.
 */
export class Coverage {
  private readonly exchanges = new Map<OperationKey, number>();
  private readonly statuses = new Map<OperationKey, Map<number, number>>();
  private readonly records = new Map<ResourceName, number>();
  /** Per resource and field path: records that carried it, and that carried it as null. */
  private readonly carried = new Map<ResourceName, Map<string, FieldCount>>();
  /** The record being counted, so that a field an array repeats counts once per record. */
  private recordNumber = 0;
  private readonly states = new Map<string, Map<string, number>>();
  private requests = 0;
  private readonly sent = new Map<string, number>();
  /** Each request field's first value, as JSON, and whether another one followed. */
  private readonly firstValue = new Map<string, string>();
  private readonly varied = new Set<string>();

  observe(seen: Observation): void {
    const { operation, role } = seen.sent;
    bump(this.exchanges, operation);
    if (seen.status !== undefined) {
      const statuses = this.statuses.get(operation) ?? new Map<number, number>();
      bump(statuses, seen.status);
      this.statuses.set(operation, statuses);
    }
    for (const record of seen.records()) this.observeRecord(seen.resource, record.value, record.schemaFields());
    const request = 'request' in role ? role.request : undefined;
    if (request) this.observeRequest(request);
  }

  /** Counts a record's fields once each, however many of its array items carry them. */
  private observeRecord(resource: ResourceName, value: unknown, fields: readonly SchemaField[]): void {
    bump(this.records, resource);
    const record = ++this.recordNumber;
    const counts = this.carried.get(resource) ?? new Map<string, FieldCount>();
    this.carried.set(resource, counts);
    for (const { path, value: field } of fields) {
      if (path === undefined) continue;
      let count = counts.get(path);
      if (!count) counts.set(path, (count = { carried: 0, null: 0, lastCarried: 0, lastNull: 0 }));
      if (count.lastCarried !== record) {
        count.carried++;
        count.lastCarried = record;
      }
      if (field === null && count.lastNull !== record) {
        count.null++;
        count.lastNull = record;
      }
    }
    for (const { pointer, known } of stateFields.filter((state) => state.resource === resource)) {
      const found = valueAt(value, pointer);
      if (typeof found !== 'string') continue;
      const state = capped(found, 100);
      const field = stateField(resource, pointer);
      const values = this.states.get(field) ?? new Map<string, number>();
      if (values.has(state) || values.size < known.length + keptOtherStates) bump(values, state);
      this.states.set(field, values);
    }
  }

  private observeRequest(request: Record<string, unknown>): void {
    this.requests++;
    for (const path of requestFieldNames) {
      if (!(path in request)) continue;
      bump(this.sent, path);
      const value = JSON.stringify(request[path]);
      const first = this.firstValue.get(path);
      if (first === undefined) this.firstValue.set(path, value);
      else if (first !== value) this.varied.add(path);
    }
  }

  report(): CoverageReport {
    const byOperation = operationIds.map((id): OperationCoverage => {
      const operation = operationTable[id].key;
      const statuses = [...(this.statuses.get(operation) ?? [])]
        .sort(([a], [b]) => a - b)
        .map(([status, count]) => ({ status, count }));
      return { operation, exchanges: this.exchanges.get(operation) ?? 0, statuses };
    });
    const fields = responseResources.flatMap((resource) =>
      documentedFields(resource).map((path): FieldCoverage => {
        const field = fieldName(resource, path);
        const count = this.carried.get(resource)?.get(path);
        return { field, carried: count?.carried ?? 0, null: count?.null ?? 0 };
      }),
    );
    const unseen = fields.filter((field) => field.carried === 0).map((field) => field.field);
    const states = stateFields.map(({ resource, pointer, known }): StateCoverage => {
      const field = stateField(resource, pointer);
      const seenValues = this.states.get(field) ?? new Map<string, number>();
      return {
        field,
        values: known.map((value) => ({ value, count: seenValues.get(value) ?? 0 })),
        others: counts(seenValues)
          .filter(({ value }) => !known.includes(value))
          .slice(0, keptOtherStates),
      };
    });
    const stateValues = states.flatMap((state) => state.values.map((value) => ({ ...value, field: state.field })));
    const requestFields = requestFieldNames.map((field): RequestFieldCoverage => {
      const sent = this.sent.get(field) ?? 0;
      const absent = this.requests - sent;
      return { field, sent, absent, varied: this.varied.has(field) || (sent > 0 && absent > 0) };
    });
    return {
      operations: {
        documented: byOperation.length,
        exercised: byOperation.filter((operation) => operation.statuses.length > 0).length,
        byOperation,
      },
      responseFields: {
        documented: fields.length,
        seen: fields.length - unseen.length,
        unseen,
        records: responseResources.map((resource) => ({ resource, count: this.records.get(resource) ?? 0 })),
        fields,
      },
      states: {
        known: stateValues.length,
        seen: stateValues.filter((value) => value.count > 0).length,
        unseen: stateValues.filter((value) => value.count === 0).map((value) => `${value.field}=${value.value}`),
        fields: states,
      },
      requestFields: {
        requests: this.requests,
        varied: requestFields.filter((field) => field.varied).map((field) => field.field),
        fields: requestFields,
      },
    };
  }
}
