import { operationByKey, operationTable, pathIdOf, type OperationId } from '../../api/operations.js';
import { isJsonObject as isObject } from '../../schemas/json-object.js';
import { keptJsonText, type KeptBody } from '../../http/kept-body.js';
import { isCredentialParameter, parameterName } from '../../http/placeholders.js';
import { isSuccessStatus } from '../../http/exchange.js';
import type { RecordedRequest } from '../../http/recorded-request.js';
import { recordedRoute, type Traffic } from '../../http/traffic.js';
import { isRefusal } from '../judge/checks/create.js';
import { labelOf, type Outgoing, type Sent } from '../judge/sent.js';
import type { ReplayReport } from '../report/model.js';
import { keyNames, type Canaries } from './canaries.js';
import type { Session } from './session.js';

/**
 * The recorded query as sent again: every parameter as the app sent it but the credential ones, whose values are
 * placeholders in the recording: the run authenticates with its own `--header`s.
 */
function replayedQuery(query: string): string {
  return query
    .split('&')
    .filter((part) => part !== '' && !isCredentialParameter(parameterName(part)))
    .join('&');
}

/**
 * The recorded body as it is sent again, with no provider key of the app's: every `lm_providers_keys` value at any
 * depth redacted as the recorders redact them (http/kept-body.ts: a recording made by hand, or by an older evalkit,
 * may hold a key in clear), then the top-level ones canaries. A body kept as text (what a recorder keeps of a body it
 * could not parse) is read as JSON and treated so; text that is not JSON cannot be searched for keys by structure, so
 * it is withheld, never sent nor printed in a curl.
 */
export function replayedBody(canaries: Canaries, recorded: unknown): KeptBody {
  if (recorded === undefined) return { body: undefined };
  const kept = keptJsonText(typeof recorded === 'string' ? recorded : JSON.stringify(recorded));
  if ('withheld' in kept)
    return { withheld: 'its body is text that is not JSON: a provider key in it could not be replaced by a canary' };
  const { body } = kept;
  return {
    body: isObject(body) && keyNames(body).length > 0 ? canaries.withNames(body, keyNames(body)) : body,
  };
}

/**
 * The request as the app sent it: method, path (its id), query, body (replayedBody) and content type. The run's own
 * `--header`s go with it (Session), never the recorded ones, whose credentials are placeholders, nor `Prefer`, which
 * only the mock reads.
 */
function outgoingOf(operation: OperationId, request: RecordedRequest, body: unknown): Outgoing {
  const contentType = request.headers['content-type'];
  const query = replayedQuery(request.query);
  return {
    method: operationTable[operation].method,
    path: request.path,
    ...(query === '' ? {} : { query }),
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    ...(body !== undefined && contentType !== undefined ? { contentType } : {}),
  };
}

/** Why a recorded request is not sent again, or undefined when it is. */
function skipReason(request: RecordedRequest, readOnly: boolean): string | undefined {
  if (request.forcedBy) return `its answer was forced by the mock scenario ${request.forcedBy}`;
  if (request.truncated) return 'its body was cut or withheld in the recording: it cannot be sent as it was';
  if (readOnly && request.method !== 'GET') return '--read-only: a create request could create data';
  return undefined;
}

/** What the recorded request was for: one the mock accepted should succeed here too. */
function sentOf(
  request: RecordedRequest,
  operation: OperationId,
  params: Record<string, string>,
  outgoing: Outgoing,
  body: unknown,
) {
  const key = operationTable[operation].key;
  if (!isSuccessStatus(request.status)) return { operation: key, outgoing, role: { kind: 'repeat' } } satisfies Sent;
  const fields = isObject(body) ? body : undefined;
  const id = pathIdOf(operationTable[operation], params);
  return {
    operation: key,
    outgoing,
    role: { kind: 'expected', ...(id !== undefined ? { id } : {}), ...(fields ? { request: fields } : {}) },
  } satisfies Sent;
}

/**
 * Sends each recorded request of the two operations to the deployment, in the order the app sent them, each answer
 * judged by the catalogue's checks; a request the mock accepted and the deployment refuses (4xx) is a refusal, with
 * its curl. Fills `report` as it goes, so a run that stops early still says how far it got.
 */
export async function replayTraffic(
  session: Session,
  traffic: Traffic,
  report: ReplayReport,
  readOnly: boolean,
): Promise<void> {
  const planned: Array<{ sent: Sent; recorded: RecordedRequest }> = [];
  for (const request of traffic.requests) {
    const route = recordedRoute(request);
    if (route === undefined) continue;
    const replayed = replayedBody(session.canaries, request.body);
    const body = 'body' in replayed ? replayed.body : undefined;
    const outgoing = outgoingOf(route.operation, request, body);
    const reason =
      skipReason(request, readOnly) ?? ('withheld' in replayed ? `${replayed.withheld}, so it is not sent` : undefined);
    if (reason !== undefined) report.skipped.push({ request: labelOf(outgoing), reason });
    else planned.push({ sent: sentOf(request, route.operation, route.params, outgoing, body), recorded: request });
  }
  await session.sendAhead(planned.map(({ sent }) => sent.outgoing));
  for (const { sent, recorded } of planned) {
    const exchange = await session.request(sent);
    report.replayed++;
    if (!isSuccessStatus(recorded.status) || !isRefusal(exchange)) continue;
    // A fetch of an id the deployment does not hold says nothing of the request's shape: data, not a refusal.
    if (operationByKey(sent.operation).parameter && exchange.status === 404)
      report.skipped.push({
        request: labelOf(sent.outgoing),
        reason: 'the deployment holds no evaluation of this id (404): record against ids that exist there',
      });
    else
      report.refused.push({
        message:
          `a request your app sends is refused: ${labelOf(sent.outgoing)} answered ${exchange.status} ` +
          `(the mock answered ${recorded.status})`,
        curl: session.curl(sent.outgoing),
      });
  }
}
