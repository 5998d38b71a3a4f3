import { formatIssue } from '../../../schemas/validators/index.js';
import { isSuccessStatus, type Received } from '../../../http/exchange.js';
import { defineCheck, finding, type Finding } from '../define.js';
import { issuesCause } from '../finding-id.js';
import { readSuccessBody, schemaIssues, serverErrorFinding } from '../observation.js';
import { listed } from './response.js';

/** An answer that never came whole, or a 5xx: what no case may get, caused by the failure's kind or the status. */
function brokenAnswer(exchange: Received): Finding | undefined {
  if (exchange.failure) return finding(exchange.failure.message, exchange.failure.kind);
  const status = exchange.status ?? 0;
  return status >= 500 ? finding(serverErrorFinding(exchange), String(status)) : undefined;
}

/** A valid case's answer: complete, no 5xx, and a success body that is an array of valid Evaluations. */
function successBodyFinding(exchange: Received): Finding | undefined {
  const broken = brokenAnswer(exchange);
  if (broken) return broken;
  const status = exchange.status ?? 0;
  if (status < 200 || status >= 300) return undefined;
  const read = readSuccessBody(exchange, 'create');
  if ('problem' in read) return finding(`answered ${status}; ${read.problem}`, read.kind);
  const { data } = read;
  if (!Array.isArray(data)) return finding(`answered ${status} with a body that is not a JSON array`, 'not an array');
  for (const [index, record] of data.entries()) {
    const { errors } = schemaIssues('Evaluation', record);
    if (errors.length > 0)
      return {
        text: `answered ${status}; /${index}: ${listed(errors.map(formatIssue), 'issues')}`,
        cause: issuesCause('Evaluation', errors),
      };
  }
  return undefined;
}

/** The property checks, each judging one case's answer; the run draws the cases, shrinks failures and records. */
export const propertyChecks = [
  defineCheck({
    id: 'create.properties.valid',
    operation: 'create',
    severity: 'error',
    title: 'Property: any valid create request gets a complete answer, not a 5xx, and a success body validates.',
    spec: '§4.2 "Successful response: a JSON array of Evaluation (2.2)."',
    property: successBodyFinding,
    propertyHint:
      'accept the counterexample: the schema allows it (its smallest form is shown); answer 200 with one valid ' +
      'Evaluation per variant',
  }),
  defineCheck({
    id: 'create.properties.invalid.5xx',
    operation: 'create',
    severity: 'error',
    title: 'Property: any invalid create request gets a complete answer, not a 5xx.',
    spec: '§4.2 request body (a 5xx is the server failing, whatever the body)',
    property: brokenAnswer,
    propertyHint: 'answer 422 with a JSON `detail` naming what is wrong with the request, as FastAPI does',
  }),
  defineCheck({
    id: 'create.properties.invalid.rejected',
    operation: 'create',
    severity: 'warning',
    title: 'Property: no invalid create request is answered with a 2xx.',
    spec: '§4.2 request body fields, types and required flags',
    // A status is enough: an answer cut short after a 2xx was still an acceptance.
    property: ({ status }) =>
      isSuccessStatus(status) ? finding(`accepted with ${status}`, String(status)) : undefined,
    propertyHint: 'validate the request body against the schema and refuse what breaks it with a 422 naming the field',
  }),
] as const;
