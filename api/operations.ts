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
    response: { resource: 'HumanEvaluation', array: false },
    spec: '§4.1',
    /** What else the path answers besides the method: HEAD comes with GET, as in Starlette and Express. */
    methods: ['GET', 'HEAD'],
  },
  createEvaluation: {
    key: 'create',
    method: 'POST',
    path: '/evaluations',
    summary: 'Create Evaluation',
    description:
      'Builds evaluations for an application, a list of variants, a list of evaluator configurations and a test set. ' +
      'The lm_providers_keys values are credentials and are never echoed. ' +
      'Whether the run completes before the answer: not shown.',
    request: 'CreateEvaluationRequest',
    response: { resource: 'Evaluation', array: true },
    spec: '§4.2',
    methods: ['POST'],
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
  request?: ResourceName;
  response: { resource: ResourceName; array: boolean };
  /** The section of the spec that states the operation. */
  spec: string;
  /** The methods the path answers (405 with these in `Allow` for any other). */
  methods: readonly string[];
}

/** An operation's OpenAPI operationId. */
export type OperationId = keyof typeof operationTable;
/** An operation's short key, as check ids and reports name it. */
export type OperationKey = (typeof operationTable)[OperationId]['key'];

export const operationIds = Object.keys(operationTable) as OperationId[];

export function isOperationId(value: string): value is OperationId {
  return Object.hasOwn(operationTable, value);
}

export function operation(id: OperationId): OperationDefinition {
  return operationTable[id];
}

/** The operation whose key is given: `fetch` is fetchHumanEvaluation. */
export function operationOfKey(key: OperationKey): OperationId {
  return operationIds.find((id) => operationTable[id].key === key) as OperationId;
}

/**
 * The folder, inside a fixtures directory, that holds one JSON file per record of the fetch operation:
 * `DIR/human-evaluations/<id>.json`, the layout `evalkit mock --fixtures DIR` serves and `evalkit proxy --record DIR`
 * writes. Named after the operation's path, so the folder reads like the URL it answers.
 */
export const recordFolder = operationTable.fetchHumanEvaluation.path.split('/')[1] as string;

/** How reports and messages name an operation: `GET /human-evaluations/{evaluation_id}`. */
export function operationLabel(id: OperationId): string {
  const { method, path } = operationTable[id];
  return `${method} ${path}`;
}
