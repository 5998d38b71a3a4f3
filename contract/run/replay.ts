import { changesData, operationTable, pathIdOf, type OperationId } from '../../api/operations.js';
import { dotSegmentRefusal, isDotSegment } from '../../api/match.js';
import { capped } from '../../http/excerpt.js';
import type { Exchange } from '../../http/exchange.js';
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
import type { DeploymentRecords } from './deployment-records.js';
import { recordFlags, runOperations } from './operations.js';
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
function outgoingOf(operation: OperationId, request: RecordedRequest, path: string, body: unknown): Outgoing {
  const contentType = sentAsUtf8(request.headers['content-type']);
  const query = replayedQuery(request.query);
  return {
    method: operationTable[operation].method,
    path,
    ...(query === '' ? {} : { query }),
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    ...(body !== undefined && contentType !== undefined ? { contentType } : {}),
    ...(body !== undefined && request.where !== undefined ? { bodyFrom: request.where } : {}),
  };
}

/**
 * The recorded Content-Type for a body sent again as JSON.stringify writes it, in UTF-8: a charset the app declared
 * for its own bytes (a UTF-16 body the proxy decoded) no longer describes them, so it is left out.
 */
function sentAsUtf8(contentType: string | undefined): string | undefined {
  return contentType?.replace(/;\s*charset\s*=\s*(?:"[^"]*"|[^;\s]*)/gi, (parameter) =>
    /=\s*"?utf-8"?$/i.test(parameter) ? parameter : '',
  );
}

/** What the substitutions did, for the note that says so: each replaced field, and how many requests it touched. */
class Substitutions {
  private readonly fields = new Map<string, number>();

  count(fields: readonly string[]): void {
    for (const field of fields) this.fields.set(field, (this.fields.get(field) ?? 0) + 1);
  }

  /** `the fetched id by --human-evaluation-id's (1 request); app_id by --create-body's (2 requests)`. */
  text(): string | undefined {
    if (this.fields.size === 0) return undefined;
    const requests = (count: number) => `${count} request${count === 1 ? '' : 's'}`;
    return [...this.fields].map(([field, count]) => `${field} (${requests(count)})`).join(', ');
  }
}

/** Why a replayed request answered 404 is skipped: the deployment does not hold what it names. */
export const unheldIds = 'the deployment holds no record of its ids';

/** The deployment's answer as a report quotes it: status and body, every credential and canary redacted. */
function answerOf(session: Session, exchange: Exchange): string {
  const body = exchange.body === '' ? '(an empty body)' : capped(session.redact(exchange.body));
  return `${exchange.status ?? 'no answer'} ${body}`;
}

/** Why a recorded request is not sent again, or undefined when it is. */
function skipReason(
  request: RecordedRequest,
  operation: OperationId,
  params: Record<string, string>,
  readOnly: boolean,
): string | undefined {
  const dot = Object.entries(params).find(([, value]) => isDotSegment(value));
  if (dot) return `${dotSegmentRefusal(...dot)}: it would leave the operation's path`;
  if (request.forcedBy) return `its answer was forced by the mock scenario ${request.forcedBy}`;
  if (request.truncated) return 'its body was cut or withheld in the recording: it cannot be sent as it was';
  if (readOnly && changesData(operationTable[operation])) return '--read-only: a create request could create data';
  return undefined;
}

/** What the recorded request was for: one the mock accepted should succeed here too. */
function sentOf(
  request: RecordedRequest,
  operation: OperationId,
  params: Record<string, string>,
  outgoing: Outgoing,
  body: unknown,
  vouched: boolean,
) {
  const key = operationTable[operation].key;
  if (!isSuccessStatus(request.status)) return { operation: key, outgoing, role: { kind: 'repeat' } } satisfies Sent;
  const fields = isObject(body) ? body : undefined;
  const id = pathIdOf(operationTable[operation], params);
  // Ids the mock made up may not exist on the deployment: its 4xx is the replay's skip or refusal, not a finding too.
  const unvouched = { what: 'a recorded request with the ids the mock made up', remedy: replacedBy };
  return {
    operation: key,
    outgoing,
    role: {
      kind: 'expected',
      ...(id !== undefined ? { id } : {}),
      ...(fields ? { request: fields } : {}),
      ...(vouched ? {} : { unvouched }),
    },
  } satisfies Sent;
}

/** How a team gives a replay the deployment's ids. */
export const replacedBy =
  `pass ${recordFlags.join(' and ')} with ids that exist there, ` + 'and they replace the recorded ones';

/**
 * Sends each recorded request of the two operations to the deployment, in the order the app sent them, each answer
 * judged by the catalogue's checks. The mock made its ids up, so when the run knows the deployment's (`ids`) they
 * stand in for them, saying so in a note; a 404 says the deployment holds no such record, which is data, not the
 * request's shape: a skip naming the answer. Any other 4xx to a request the mock accepted is a refusal, with the
 * deployment's answer (redacted) and a curl. Fills `report` as it goes, so a run that stops early still says how far
 * it got.
 */
export async function replayTraffic(
  session: Session,
  traffic: Traffic,
  report: ReplayReport,
  options: { readOnly: boolean; ids: DeploymentRecords },
): Promise<void> {
  const planned: Array<{ sent: Sent; recorded: RecordedRequest }> = [];
  const substitutions = new Substitutions();
  for (const request of traffic.requests) {
    const route = recordedRoute(request);
    if (route === undefined) continue;
    const replayed = replayedBody(session.canaries, request.body);
    const reason =
      skipReason(request, route.operation, route.params, options.readOnly) ??
      ('withheld' in replayed ? `${replayed.withheld}, so it is not sent` : undefined);
    const recordedBody = 'body' in replayed ? replayed.body : undefined;
    const { path, params, body, replaced } =
      reason === undefined
        ? runOperations[route.operation].substitute(route.operation, route.params, recordedBody, options.ids)
        : { path: request.path, params: route.params, body: recordedBody, replaced: [] };
    const outgoing = outgoingOf(route.operation, request, path, body);
    if (reason !== undefined) report.skipped.push({ request: labelOf(outgoing), reason });
    else {
      substitutions.count(replaced);
      const vouched = replaced.length > 0;
      planned.push({ sent: sentOf(request, route.operation, params, outgoing, body, vouched), recorded: request });
    }
  }
  const replaced = substitutions.text();
  if (replaced !== undefined)
    session.verdicts.note(
      'create',
      `replay: the mock's ids replaced by the deployment's (${recordFlags.join(', ')}), ` +
        `the rest of each request as the app sent it: ${replaced}`,
    );
  await session.sendAhead(planned.map(({ sent }) => sent.outgoing));
  for (const { sent, recorded } of planned) {
    const exchange = await session.request(sent);
    // A request is counted once: replayed, or skipped for data the deployment does not hold (its 404).
    const unheld = isSuccessStatus(recorded.status) && isRefusal(exchange) && exchange.status === 404;
    if (!unheld) report.replayed++;
    if (!isSuccessStatus(recorded.status) || !isRefusal(exchange)) continue;
    if (unheld)
      report.skipped.push({
        request: labelOf(sent.outgoing),
        reason: `${unheldIds} (${answerOf(session, exchange)}): ${replacedBy}`,
      });
    else
      report.refused.push({
        message:
          `a request your app sends is refused: ${labelOf(sent.outgoing)} answered ${exchange.status} ` +
          `(the mock answered ${recorded.status})`,
        answer: answerOf(session, exchange),
        curl: session.curl(sent.outgoing),
      });
  }
}
