import { credentialField } from '../api/credentials.js';
import { operationOfKey, operationTable, type OperationKey } from '../api/operations.js';
import { formatIssue, validate } from '../schemas/validators/index.js';
import type { Exchange } from '../http/exchange.js';
import { isJsonMediaType, mediaType } from '../http/media-type.js';
import { secretPlaceholder } from '../http/placeholders.js';
import { credentialsOf, redactReport, Redactor } from '../http/redaction.js';
import type { CheckId } from '../contract/judge/catalogue.js';
import { Evidence } from '../contract/judge/evidence.js';
import { judgeExchange } from '../contract/judge/judge.js';
import { Observation, type Fields } from '../contract/judge/observation.js';
import { labelOf, type Outgoing, type Role, type Sent } from '../contract/judge/sent.js';
import { Verdicts, type CheckResult } from '../contract/judge/verdicts.js';
import type { Passage } from './forward.js';
import { fetchedId, operationOf, type Route } from './operations.js';

/** A proxied request names ids nobody vouched for: a 4xx for them is the client's business, not a finding. */
const passiveTraffic = { what: 'a proxied request', remedy: 'the proxy judges only the answers that succeed' };

/** Checks only an active run can make: the proxy sends nothing of its own. */
const activeOnly: readonly CheckId[] = [
  'fetch.unknown-id.rejected',
  'create.properties.valid',
  'create.properties.invalid.5xx',
  'create.properties.invalid.rejected',
];

/** What judging one passage gave. */
export interface Judgement {
  operation: OperationKey;
  label: string;
  /** The checks this exchange failed, redacted. */
  failed: CheckResult[];
  /** The answer's status; undefined when none arrived. */
  status?: number;
}

/**
 * The credential values clients sent as lm_providers_keys, watched for in every answer and redacted from every
 * output. Only the latest `max` are kept, so a proxy that runs for days holds a bounded list.
 */
class WatchedKeys {
  private readonly values: string[] = [];

  constructor(private readonly max = 1_000) {}

  /** The values of a create request's keys; as with header values, a string under 4 characters is not watched. */
  watchRequest(request: unknown): void {
    const keys = (request as Fields | undefined)?.[credentialField];
    if (!keys || typeof keys !== 'object') return;
    for (const value of Object.values(keys)) {
      if (typeof value !== 'string' || value.length < 4 || this.values.includes(value)) continue;
      this.values.push(value);
      if (this.values.length > this.max) this.values.shift();
    }
  }

  all(): readonly string[] {
    return this.values;
  }
}

/** The body of a create request, parsed; undefined when it is absent or not JSON. */
function parsedBody(body: string | undefined): unknown {
  if (body === undefined) return undefined;
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

/** Why a proxied create request is invalid, or undefined for a valid one. */
function invalidity(passage: Passage, request: unknown): string | undefined {
  if (!isJsonMediaType(mediaType(passage.requestHeaders)))
    return `Content-Type ${passage.requestHeaders['content-type'] ?? '(none)'}`;
  if (request === undefined) return 'a missing or malformed JSON body';
  return validate('CreateEvaluationRequest', request).issues.map(formatIssue).join(', ') || undefined;
}

/** The exchange record of a passage, as the contract's client would have made it. */
function exchangeOf(passage: Passage, outgoing: Outgoing, target: URL): Exchange {
  return {
    request: {
      method: outgoing.method,
      url: new URL(target),
      headers: {},
      ...(outgoing.body !== undefined ? { body: outgoing.body } : {}),
    },
    ...(passage.status !== undefined ? { status: passage.status } : {}),
    headers: passage.headers,
    body: passage.body,
    bodyBytes: passage.bodyBytes,
    ...(passage.encoding ? { encoding: passage.encoding } : {}),
    redirects: [],
    ...(passage.failure ? { failure: passage.failure } : {}),
  };
}

/**
 * Judges each exchange of one of the two operations with the contract suite's own checks, one exchange at a time,
 * and keeps the run's verdicts. Every lm_providers_keys value a client sends is watched: found in any answer it is
 * an echo, and it is redacted from every output.
 */
export class ExchangeJudge {
  readonly verdicts = new Verdicts();
  /** Answers over the cap, forwarded unchecked, per operation. */
  readonly overCap: Record<OperationKey, number> = { fetch: 0, create: 0 };
  private readonly watched = new WatchedKeys();
  /** The credentials of the target URL and headers, and every lm_providers_keys value a client sent. */
  readonly redactor: Redactor;
  private readonly evidence: Evidence;

  constructor(
    private readonly target: URL,
    headers: Record<string, string>,
    private readonly maxBodyBytes: number,
    private readonly maxFindings = 1_000,
  ) {
    const credentials = credentialsOf(target, headers);
    this.redactor = new Redactor(() => [
      ...credentials,
      ...this.watched.all().map((value) => ({ value, placeholder: secretPlaceholder })),
    ]);
    this.evidence = new Evidence(target, Object.keys(headers), (text) => this.redact(text));
    for (const id of activeOnly) this.verdicts.skip(id, 'not observable by the proxy: it sends no request of its own');
  }

  redact(text: string): string {
    return this.redactor.text(text);
  }

  /** What the client sent, and what it was for: over the cap, only what every answer must satisfy is judged. */
  private sentOf(passage: Passage, route: Route, request: unknown, requestBody: string | undefined): Sent {
    const { operation } = route;
    const outgoing: Outgoing = {
      method: operationTable[operationOfKey(operation)].method,
      path: passage.path,
      ...(requestBody !== undefined ? { body: requestBody, contentType: passage.requestHeaders['content-type'] } : {}),
    };
    if (passage.overCap) return { operation, outgoing, role: { kind: 'repeat' } };
    if (operation === 'fetch')
      return { operation, outgoing, role: { kind: 'expected', id: fetchedId(route), unvouched: passiveTraffic } };
    const problem = invalidity(passage, request);
    const accepted = (status: number) =>
      `${labelOf(outgoing)}: an invalid create request (${problem}) was accepted with ${status}`;
    const role: Role = problem
      ? { kind: 'invalid', accepted }
      : { kind: 'expected', request: request as Fields, unvouched: passiveTraffic };
    return { operation, outgoing, role };
  }

  judge(passage: Passage): Judgement | undefined {
    const route = operationOf(passage.method, passage.path);
    if (!route || passage.abandoned || passage.unreachable) return undefined;
    // Only a create request's body is read: it names the credentials to watch and what the answer must match.
    const requestBody = route.operation === 'create' ? passage.requestBody : undefined;
    const request = parsedBody(requestBody);
    this.watched.watchRequest(request);
    const sent = this.sentOf(passage, route, request, requestBody);
    const exchange = exchangeOf(passage, sent.outgoing, this.target);
    const verdicts = new Verdicts();
    const seen = new Observation(sent, exchange, this.watched.all());
    judgeExchange(verdicts, seen, this.evidence);
    if (passage.overCap) {
      this.overCap[route.operation]++;
      verdicts.note(
        route.operation,
        `a request or answer over the ${this.maxBodyBytes}-byte cap was forwarded unchecked`,
      );
    }
    // Violations print live, before any report exists: each goes through the same redaction as the report will.
    const failed = verdicts
      .results()
      .filter((check) => check.outcome === 'failed')
      .map((check) => redactReport(check, this.redactor));
    this.verdicts.absorb(verdicts, this.maxFindings, (text) => this.redact(text));
    return {
      operation: route.operation,
      label: seen.label,
      failed,
      ...(exchange.status !== undefined ? { status: exchange.status } : {}),
    };
  }
}
