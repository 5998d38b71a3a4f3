import type { ResourceName } from '../schemas/index.js';

/**
 * The API surface: the spec's two operations, each named once. The mock's router, the proxy's matcher, the contract's
 * request builders, the OpenAPI paths, the report's labels and the dashboard all derive from this table, so a third
 * operation is one entry here.
 */
export const operationTable = {
  fetchHumanEvaluation: {
    key: 'fetch',
    method: 'GET',
    path: '/human-evaluations/{evaluation_id}',
    summary: 'Fetch Human Evaluation',
    description: 'Fetches a single human evaluation by its identifier.',
    parameter: { name: 'evaluation_id', description: 'The identifier of the evaluation to fetch.' },
    response: { resource: 'HumanEvaluation', array: false, sections: '§2.1' },
    spec: '§4.1',
    success: 'Successful response: one HumanEvaluation (2.1).',
    recordFolder: 'human-evaluations',
    /** What else the path answers besides the method: HEAD comes with GET, as in Starlette and Express. */
    methods: ['GET', 'HEAD'],
  },
  createEvaluations: {
    key: 'create',
    method: 'POST',
    path: '/evaluations',
    summary: 'Create Evaluation',
    description:
      'Builds evaluations for an application, a list of variants, a list of evaluator configurations and a test set. ' +
      'The lm_providers_keys values are credentials and are never echoed. ' +
      'Whether the run completes before the answer: not shown.',
    request: 'CreateEvaluationRequest',
    response: { resource: 'Evaluation', array: true, sections: '§2.2-2.4' },
    spec: '§4.2',
    success: 'Successful response: a JSON array of Evaluation (2.2).',
    methods: ['POST'],
    // Its name until evalkit 0.1: `createEvaluation` made Kubb's client function clash with its faker factory for the
    // schema Evaluation (both `createEvaluation`).
    formerIds: ['createEvaluation'],
  },
} as const satisfies Record<string, OperationDefinition>;

export interface OperationDefinition {
  /** The short name check ids and reports use: `fetch.body.schema`. */
  key: string;
  method: string;
  /** An OpenAPI path template; each `{name}` stands for one non-empty path segment. */
  path: string;
  summary: string;
  description: string;
  parameter?: { name: string; description: string };
  /** The resource its body holds; an operation without one takes no body. */
  request?: ResourceName;
  /**
   * What a success answers: one record of `resource`, or an array of them; `sections`, the spec's sections its records
   * span (for the checks' spec lines).
   */
  response: { resource: ResourceName; array: boolean; sections: string };
  /**
   * The folder of a fixtures directory that holds one JSON file per record this operation answers by id
   * (`DIR/<recordFolder>/<id>.json`): what `evalkit mock --fixtures DIR` serves and `proxy --record DIR` writes.
   */
  recordFolder?: string;
  /** The section of the spec that states the operation. */
  spec: string;
  /** The spec's own words for a successful answer, which the judge's checks of it quote. */
  success: string;
  /** The methods the path answers (405 with these in `Allow` for any other). */
  methods: readonly string[];
  /** Names it had before, still read wherever a user writes an operation's name (scenario files, the control room). */
  formerIds?: readonly string[];
}

/** An operation's OpenAPI operationId. */
export type OperationId = keyof typeof operationTable;
/** An operation's short key, as check ids and reports name it. */
export type OperationKey = (typeof operationTable)[OperationId]['key'];

export const operationIds = Object.keys(operationTable) as OperationId[];
/** Every operation's short key, in table order. */
export const operationKeys: readonly OperationKey[] = operationIds.map((id) => operationTable[id].key);

/** A count (or any value) per operation key, each starting at `initial`: a tally that grows with the table. */
export function perOperation<T>(initial: T): Record<OperationKey, T> {
  return Object.fromEntries(operationKeys.map((key) => [key, initial])) as Record<OperationKey, T>;
}

function isOperationId(value: string): value is OperationId {
  return Object.hasOwn(operationTable, value);
}

/** The operation a user's name stands for: its operationId, or a name it had before (formerIds). */
export function operationNamed(name: string): OperationId | undefined {
  if (isOperationId(name)) return name;
  return operationIds.find((id) => (operation(id).formerIds ?? []).includes(name));
}

export function operation(id: OperationId): OperationDefinition {
  return operationTable[id];
}

/** The operation whose key is given: `fetch` is fetchHumanEvaluation. */
export function operationOfKey(key: OperationKey): OperationId {
  return operationIds.find((id) => operationTable[id].key === key) as OperationId;
}

/** The operation whose key is given, as its definition. */
export function operationByKey(key: OperationKey): OperationDefinition {
  return operationTable[operationOfKey(key)];
}

/** The path parameter that names the one record an operation addresses (`evaluation_id`), if it has one. */
export function pathIdOf(
  definition: OperationDefinition,
  params: Readonly<Record<string, string>>,
): string | undefined {
  return definition.parameter && params[definition.parameter.name];
}

/** Whether an operation can change data (its method is not safe, RFC 9110 §9.2.1): what `--read-only` never sends. */
export function changesData(definition: OperationDefinition): boolean {
  return definition.method !== 'GET' && definition.method !== 'HEAD';
}

/**
 * The folder, inside a fixtures directory, of the operation that answers records by id:
 * `DIR/human-evaluations/<id>.json`, the layout `evalkit mock --fixtures DIR` serves and `evalkit proxy --record DIR`
 * writes.
 */
export const recordFolder = operationTable.fetchHumanEvaluation.recordFolder;

/** How reports and messages name an operation: `GET /human-evaluations/{evaluation_id}`. */
export function operationLabel(id: OperationId): string {
  const { method, path } = operationTable[id];
  return `${method} ${path}`;
}
