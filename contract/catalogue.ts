import { maxJsonDepth } from '../http/json-body.js';

/** The operations of the spec (section 4), as the report names them. */
export const operations = {
  fetch: 'GET /human-evaluations/{evaluation_id}',
  create: 'POST /evaluations',
} as const;

export type OperationKey = keyof typeof operations;
export type Severity = 'error' | 'warning';

/** A check: what must hold, how bad it is when it does not, and the line of the spec that makes it so. */
export interface CheckDefinition {
  id: string;
  operation: OperationKey;
  severity: Severity;
  /** What passing means, in one sentence. */
  title: string;
  /** The spec line (or issue verdict) the check enforces. */
  spec: string;
}

const responseSpec = {
  fetch: '§4.1 "Successful response: one HumanEvaluation (2.1)."',
  create: '§4.2 "Successful response: a JSON array of Evaluation (2.2)."',
} as const;

/** Checks every operation gets, one id per operation. */
function responseChecks(operation: OperationKey): CheckDefinition[] {
  const spec = responseSpec[operation];
  return [
    {
      id: `${operation}.transport`,
      operation,
      severity: 'error',
      title:
        'Every request gets a complete answer: in time, within the size cap, no dropped connection, no redirect to another origin.',
      spec: `${spec} (an answer must arrive whole to be one)`,
    },
    {
      id: `${operation}.status.5xx`,
      operation,
      severity: 'error',
      title: 'No request, valid or invalid, is answered with a 5xx.',
      spec: '§7 "Error status codes ... not shown": whatever the client sent, a 5xx is the server failing (issue 4 verdict)',
    },
    {
      id: `${operation}.body.json`,
      operation,
      severity: 'error',
      title: `A success body is JSON: UTF-8, parseable, nested at most ${maxJsonDepth} levels deep.`,
      spec: `${spec} (JSON exchanged between systems is UTF-8, RFC 8259 §8.1; deeper bodies are not walked)`,
    },
    {
      id: `${operation}.body.bom`,
      operation,
      severity: 'warning',
      title: 'A success body starts without a byte order mark.',
      spec: 'RFC 8259 §8.1 "Implementations MUST NOT add a byte order mark (U+FEFF) to the beginning of a networked-transmitted JSON text."',
    },
    {
      id: `${operation}.body.schema`,
      operation,
      severity: 'error',
      title: 'A success body validates against the schema (required fields, types, RFC 3339 date-times).',
      spec,
    },
    {
      id: `${operation}.body.nulls`,
      operation,
      severity: 'warning',
      title: 'Optional fields are absent rather than null (null is not their type).',
      spec:
        operation === 'fetch'
          ? '§2.1 field types (all required today: a null there is a schema error)'
          : '§2.2-2.4 optional fields are typed; null is not among the types',
    },
    {
      id: `${operation}.content-type`,
      operation,
      severity: 'warning',
      title: 'A success answers with a JSON Content-Type.',
      spec,
    },
    {
      id: `${operation}.body.variants`,
      operation,
      severity: 'warning',
      title: 'The variant arrays of a record have one length.',
      spec:
        operation === 'fetch'
          ? '§2.1 variant_ids, variant_names, variants_revision_ids, revisions'
          : '§2.2 variant_ids, variant_names, variant_revision_ids, revisions',
    },
    {
      id: `${operation}.body.timestamps`,
      operation,
      severity: 'warning',
      title: 'created_at is not later than updated_at (compared as instants).',
      spec: '§2.1/§2.2 created_at, updated_at: date-time',
    },
  ];
}

export const catalogue: readonly CheckDefinition[] = [
  ...responseChecks('fetch'),
  {
    id: 'fetch.status.success',
    operation: 'fetch',
    severity: 'warning',
    title: 'The given human evaluation id is answered with a 2xx.',
    spec: '§4.1 "evaluation_id ... the identifier of the evaluation to fetch"',
  },
  {
    id: 'fetch.body.id',
    operation: 'fetch',
    severity: 'warning',
    title: 'The record answered is the one asked for (same id).',
    spec: '§4.1 "It is the identifier of the evaluation to fetch."',
  },
  {
    id: 'fetch.unknown-id.rejected',
    operation: 'fetch',
    severity: 'warning',
    title: 'An unknown id is not answered with a 2xx.',
    spec: '§4.1 "It is the identifier of the evaluation to fetch."',
  },
  ...responseChecks('create'),
  {
    id: 'create.status.success',
    operation: 'create',
    severity: 'warning',
    title: 'The given create request is answered with a 2xx.',
    spec: '§4.2 request body (required)',
  },
  {
    id: 'create.secrets.echo',
    operation: 'create',
    severity: 'error',
    title: 'No submitted lm_providers_keys value appears in any response, body or headers, error responses included.',
    spec: '§4.2 "lm_providers_keys values ... a credential supplied by the caller per provider; it is never echoed" (issue 4 verdict: found anywhere, an error)',
  },
  {
    id: 'create.provider-keys.accepted',
    operation: 'create',
    severity: 'error',
    title:
      'A create request that is accepted is accepted with other lm_providers_keys names too (well-known, lower case, digits, dashes, non-ASCII).',
    spec: '§4.2 lm_providers_keys "object: arbitrary property names, string values" (a valid request refused)',
  },
  {
    id: 'create.body.per-variant',
    operation: 'create',
    severity: 'warning',
    title: 'One Evaluation per requested variant.',
    spec: '§4.2 "builds evaluations for ... a list of variants"',
  },
  {
    id: 'create.body.request-ids',
    operation: 'create',
    severity: 'warning',
    title: "Each Evaluation's app_id and testset_id are the request's.",
    spec: '§4.2 "builds evaluations for an application ... and a test set"',
  },
  {
    id: 'create.body.evaluator-configs',
    operation: 'create',
    severity: 'warning',
    title: 'Aggregated results only name requested evaluator configs.',
    spec: '§4.2 "aggregated results per evaluator configuration"',
  },
  {
    id: 'create.body.evaluator-config.known',
    operation: 'create',
    severity: 'warning',
    title: 'Each evaluator_config matches the documented EvaluatorConfig (the spec declares others it does not show).',
    spec: '§2.4 "declared as one of several alternatives (anyOf); only the shape above is given"',
  },
  {
    id: 'create.invalid.rejected',
    operation: 'create',
    severity: 'warning',
    title:
      'Invalid create requests (a rule broken, malformed JSON, a non-JSON Content-Type) are not answered with a 2xx.',
    spec: '§4.2 request body fields, types and required flags',
  },
  {
    id: 'create.properties.valid',
    operation: 'create',
    severity: 'error',
    title: 'Property: any valid create request gets a complete answer, not a 5xx, and a success body validates.',
    spec: '§4.2 "Successful response: a JSON array of Evaluation (2.2)."',
  },
  {
    id: 'create.properties.invalid.5xx',
    operation: 'create',
    severity: 'error',
    title: 'Property: any invalid create request gets a complete answer, not a 5xx.',
    spec: '§4.2 request body (issue: any 5xx is an error)',
  },
  {
    id: 'create.properties.invalid.rejected',
    operation: 'create',
    severity: 'warning',
    title: 'Property: no invalid create request is answered with a 2xx.',
    spec: '§4.2 request body fields, types and required flags',
  },
];
