import { operationLabel, operationOfKey, type OperationKey } from '../../api/operations.js';
import type { CheckId } from '../judge/catalogue.js';
import { differenceId } from './difference-id.js';
import type { Facets } from './facets.js';
import { violatedCheck } from './violations.js';

/** What a frontend can see differ between the deployment's answer and the mock's to the same request. */
type Aspect =
  | 'status'
  | 'content type'
  | 'error body'
  | 'error words'
  | 'redirects'
  | 'evaluations'
  | 'created state'
  | 'id style'
  | 'date form'
  | 'null or absent';

/** What a frontend built on the mock would notice against the deployment, per aspect. */
const notices: Record<Aspect, string> = {
  status:
    'code that branches on the status (an error view, a retry, a "not found" page) takes another path than it did ' +
    'on the mock',
  'content type': 'a client that checks the Content-Type before reading JSON (or a generated SDK) reads it otherwise',
  'error words':
    'an error view shows other words (a message, a field named otherwise), and code that branches on an error ' +
    "`type` ('missing', 'value_error.missing') takes another path",
  'error body':
    "error handling written against the mock's error body (e.g. reading `detail` as a string or a " +
    'list of {loc, msg}) shows nothing or throws',
  redirects:
    'the browser follows a redirect the mock never sends: one more round trip, a CORS preflight for the new URL, ' +
    "and fetch(…, {redirect: 'error'}) fails",
  evaluations: 'a view counting the runs a create started shows another number',
  'created state': 'a status badge, a spinner or a polling hook starts from another state than on the mock',
  'id style':
    'routes and checks that hard-code the id shape (a 24-hex pattern, uuid.UUID(id), a UUID route) refuse the ids ' +
    'the deployment gives',
  'date form':
    'date parsing differs: a date without offset reads as local time, a space instead of T is an Invalid Date in ' +
    'some browsers, and appending Z to an offset makes it invalid',
  'null or absent':
    "checks such as `'field' in record`, `record.field !== undefined` or a zod/io-ts `.optional()` tell null from " +
    'absent: a view or a validation that passed on the mock fails',
};

/** One difference in one exchange, before the same ones are gathered. */
interface Seen {
  aspect: Aspect;
  deployment: string;
  mock: string;
  /** For `null or absent`: the fields concerned, gathered across exchanges. */
  fields?: string[];
}

/** The differences between two answers to one request, on what a frontend sees; data values are never compared. */
export function differencesOf(deployment: Facets, mock: Facets): Seen[] {
  const seen: Seen[] = [];
  const differ = (aspect: Aspect, left: string | number | undefined, right: string | number | undefined) => {
    if (left !== right) seen.push({ aspect, deployment: String(left ?? 'none'), mock: String(right ?? 'none') });
  };
  differ('status', deployment.status, mock.status);
  if (deployment.status === 'no answer' || mock.status === 'no answer') return seen;
  differ('content type', deployment.contentType, mock.contentType);
  differ('redirects', deployment.redirects, mock.redirects);
  // The body's facets are compared when both answers are of one kind: a status apart says it already.
  if (deployment.errorShape !== undefined && mock.errorShape !== undefined)
    differ('error body', deployment.errorShape, mock.errorShape);
  // The words are compared when the shapes agree: a shape apart says it already.
  if (deployment.errorShape === mock.errorShape) differ('error words', deployment.errorWording, mock.errorWording);
  if (deployment.fields && mock.fields) {
    differ('evaluations', deployment.evaluations, mock.evaluations);
    differ('created state', deployment.createdStates, mock.createdStates);
    if (deployment.idStyles && mock.idStyles) differ('id style', deployment.idStyles, mock.idStyles);
    if (deployment.dateForms && mock.dateForms) differ('date form', deployment.dateForms, mock.dateForms);
    seen.push(...nullOrAbsent(deployment.fields, mock.fields));
  }
  return seen;
}

/**
 * Fields one side sends as null and the other leaves out. Whether an optional field is filled is data (the mock's
 * `mixed` profile varies it by seed); how an empty one is sent is a form a client depends on.
 */
function nullOrAbsent(deployment: Facets['fields'] = {}, mock: Facets['fields'] = {}): Seen[] {
  const nullOnly = (one: Facets['fields'] = {}, other: Facets['fields'] = {}) =>
    Object.keys(one).filter((path) => one[path] === 'null' && other[path] === undefined);
  const seen: Seen[] = [];
  const byDeployment = nullOnly(deployment, mock);
  if (byDeployment.length > 0)
    seen.push({ aspect: 'null or absent', deployment: 'null', mock: 'left out', fields: byDeployment });
  const byMock = nullOnly(mock, deployment);
  if (byMock.length > 0) seen.push({ aspect: 'null or absent', deployment: 'left out', mock: 'null', fields: byMock });
  return seen;
}

/** A difference as reported: the same one seen on several requests once, with the first's two answers. */
export interface MockDifference {
  /** Stable across runs and seeds (difference-id.ts): what an ignore file lists to accept it. */
  id: string;
  /** The operation it was seen on, as the report names operations: `GET /human-evaluations/{evaluation_id}`. */
  operation: string;
  aspect: Aspect;
  /** What the deployment showed, e.g. `404`, `naive`, `null`. */
  deployment: string;
  /** What the mock showed. */
  mock: string;
  /** For `null or absent`: the fields (array items as `[]`). */
  fields?: string[];
  /** The requests it was seen on, in the run's order (the first few), and how many in all. */
  requests: string[];
  count: number;
  /** The first request's two answers, redacted and cut: status, Content-Type and the start of the body. */
  answers: { deployment: string; mock: string };
  /** What a frontend built on the mock would notice. */
  notice: string;
  /**
   * The deployment's answer to one of its requests failed an error-level check that accounts for this difference
   * (violations.ts): the deployment breaks the spec there, which is no drift of the mock's; never fails
   * --fail-on-drift.
   */
  deploymentBreaksSpec: boolean;
  /** With deploymentBreaksSpec: the check failed, the first found if several. */
  check?: CheckId;
  /** Listed in the run's ignore file: known to the team, it no longer fails --fail-on-drift. */
  accepted: boolean;
}

/** One compared request: its label and operation, its answers' facets and excerpts, and the checks it failed. */
export interface ComparedExchange {
  label: string;
  operation: OperationKey;
  deployment: Facets;
  mock: Facets;
  answers: { deployment: string; mock: string };
  /** The error-level checks the deployment's answer failed, in the catalogue's order. */
  failedChecks: readonly CheckId[];
}

/** Requests listed per difference: the count says the rest. */
const listedRequests = 5;
/** Fields listed per difference, likewise. */
const listedFields = 20;

/**
 * Every difference of the compared exchanges, the same one on several requests gathered once, in the run's order;
 * those whose id is in `accepted` marked so.
 */
/** Aspects whose values alone break the spec (a naive date), wherever they are seen. */
const violatesByValue: ReadonlySet<string> = new Set(['date form']);

export function gatherDifferences(
  exchanges: readonly ComparedExchange[],
  accepted: ReadonlySet<string> = new Set(),
): MockDifference[] {
  const gathered = new Map<string, MockDifference>();
  for (const exchange of exchanges) {
    for (const seen of differencesOf(exchange.deployment, exchange.mock)) {
      const check = violatedCheck(seen, exchange.failedChecks);
      const { operation } = exchange;
      // A status or an error body breaks the spec by the request it answers (a 422 to key names the spec allows, not
      // to a string for an integer): the same values are two differences, one the deployment's violation. A date's
      // form breaks it by itself, wherever it is seen.
      const apart = check !== undefined && !violatesByValue.has(seen.aspect);
      const id = differenceId({ ...seen, operation, deploymentBreaksSpec: apart });
      const known = gathered.get(id);
      if (known) {
        known.count++;
        // The same values on another request of the operation are the same difference: where a check showed the
        // deployment breaks the spec with them, they are its violation on every request (one judged, one not).
        if (check !== undefined && known.check === undefined)
          Object.assign(known, { deploymentBreaksSpec: true, check });
        if (known.requests.length < listedRequests && !known.requests.includes(exchange.label))
          known.requests.push(exchange.label);
        if (known.fields && seen.fields)
          for (const field of seen.fields)
            if (known.fields.length < listedFields && !known.fields.includes(field)) known.fields.push(field);
        continue;
      }
      gathered.set(id, {
        id,
        operation: operationLabel(operationOfKey(operation)),
        aspect: seen.aspect,
        deployment: seen.deployment,
        mock: seen.mock,
        ...(seen.fields ? { fields: seen.fields.slice(0, listedFields) } : {}),
        requests: [exchange.label],
        count: 1,
        answers: exchange.answers,
        notice: notices[seen.aspect],
        deploymentBreaksSpec: check !== undefined,
        ...(check !== undefined ? { check } : {}),
        accepted: accepted.has(id),
      });
    }
  }
  return [...gathered.values()];
}

/**
 * A difference in one line, its id last: `status of GET /x (an unknown ObjectId): the deployment 404, the mock 200
 * [d1f3a9c0b2e4]`; a deployment's violation names the check it failed.
 */
export function differenceLine(difference: MockDifference): string {
  const fields = difference.fields ? ` (${difference.fields.join(', ')})` : '';
  const more = difference.count > 1 ? ` and ${difference.count - 1} more` : '';
  const check = difference.check ? `, failing ${difference.check}` : '';
  return (
    `${difference.aspect}${fields}: the deployment ${difference.deployment}, the mock ${difference.mock} ` +
    `(${difference.requests[0] ?? ''}${more}${check}) [${difference.id}]`
  );
}
