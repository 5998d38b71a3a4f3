import { credentialField } from '../api/credentials.js';
import { operationByKey, operationOfKey, operationTable, perOperation, type OperationKey } from '../api/operations.js';
import { formatIssue, validate } from '../schemas/validators/index.js';
import type { Exchange } from '../http/exchange.js';
import { isJsonMediaType, mediaType } from '../http/media-type.js';
import { providerKeyValues, secretPlaceholder } from '../http/placeholders.js';
import { decodeBody } from '../http/body-decoding.js';
import { replayHeaders, requestCredentials } from '../http/credentials.js';
import { credentialsOf, redactReport, Redactor, secretSpans, type Secret } from '../http/redaction.js';
import type { CheckId } from '../contract/judge/catalogue.js';
import { Coverage } from '../contract/judge/coverage.js';
import { Evidence } from '../contract/judge/evidence.js';
import { judgeExchange } from '../contract/judge/judge.js';
import { Observation, type Fields } from '../contract/judge/observation.js';
import { labelOf, type Outgoing, type Role, type Sent } from '../contract/judge/sent.js';
import { Verdicts, type CheckResult } from '../contract/judge/verdicts.js';
import type { Content } from '../http/decoded-body.js';
import type { Passage } from './forward.js';
import { fetchedId, type Route } from './operations.js';

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
 * Secrets seen in requests, watched for in every answer and redacted from every output, one per value. Only the latest
 * `max` are kept, so a proxy that runs for days holds a bounded list; as with header values, a value under 4
 * characters is not watched.
 */
class Watched {
  private readonly secrets = new Map<string, Secret>();

  constructor(private readonly max = 1_000) {}

  add(secrets: readonly Secret[]): void {
    for (const secret of secrets) {
      if (secret.value.length < 4) continue;
      this.secrets.delete(secret.value);
      this.secrets.set(secret.value, secret);
      if (this.secrets.size > this.max) this.secrets.delete(this.secrets.keys().next().value as string);
    }
  }

  all(): Secret[] {
    return [...this.secrets.values()];
  }

  values(): string[] {
    return [...this.secrets.keys()];
  }
}

/** Every provider key a create request carries (http/placeholders.ts reads where they are). */
function providerKeys(request: unknown): Secret[] {
  return providerKeyValues(request).map((value) => ({ value, placeholder: secretPlaceholder }));
}

/** String literals of a JSON text, escapes and all: `"a\"b"` is one. */
const stringLiteral = /"((?:[^"\\]|\\.)*)"/g;

/** How much of an unreadable body after each lm_providers_keys is searched for its keys. */
const keysSpan = 4096;

/**
 * The keys an unreadable body may still hold, found the way a lenient reader would find them: every string literal
 * in the object that follows each lm_providers_keys, its name written in any form. Found or not, the body is never
 * shown.
 */
function keysInUnreadable(text: string): Secret[] {
  const keys: Secret[] = [];
  for (const field of secretSpans(text, [credentialField])) {
    const start = field.end;
    const span = text.slice(start, start + keysSpan);
    const open = span.indexOf('{');
    const close = span.indexOf('}', open);
    const object = open < 0 ? '' : span.slice(open + 1, close < 0 ? span.length : close);
    for (const [, literal] of object.matchAll(stringLiteral)) {
      let value = literal as string;
      try {
        value = JSON.parse(`"${value}"`) as string;
      } catch {
        // Kept as written: the echo would be of these characters.
      }
      keys.push({ value, placeholder: secretPlaceholder });
    }
  }
  return keys;
}

/** What stands for a create body that could not be read: its bytes may hold keys nobody can find, so none is shown. */
function unreadablePlaceholder(bytes: number): string {
  return `<UNREADABLE BODY: ${bytes} bytes, kept out of every output>`;
}

/**
 * A create request's body as the target reads it: its content (its Content-Encoding undone within the cap), UTF-8
 * with or without a byte order mark, then JSON. Resolves to the text and value, or to why it cannot be read.
 */
function readCreateBody(content: Content): { text: string; request: unknown } | { unreadable: string; text?: string } {
  if ('problem' in content) return { unreadable: content.problem.message };
  const { body, encoding } = decodeBody(content.bytes);
  if (encoding === 'invalid-utf8') return { unreadable: 'the body is not UTF-8', text: body };
  const text = encoding === 'bom' ? body.slice(1) : body;
  try {
    return { text, request: JSON.parse(text) };
  } catch {
    return { unreadable: 'the body is not JSON', text };
  }
}

/** A create request's body as the judge reads it: its text and value, or why it could not be read, or none at all. */
type CreateBody = { text: string; request: unknown } | { unreadable: string; bytes: number; text: string } | undefined;

/** Why a proxied create request is invalid, or undefined for a valid one. */
function invalidity(passage: Passage, body: CreateBody): string | undefined {
  if (!isJsonMediaType(mediaType(passage.requestHeaders)))
    return `Content-Type ${passage.requestHeaders['content-type'] ?? '(none)'}`;
  if (body === undefined) return 'a missing body';
  if ('unreadable' in body) return `a body that cannot be read: ${body.unreadable}`;
  return validate('CreateEvaluationRequest', body.request).issues.map(formatIssue).join(', ') || undefined;
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
  /** What the judged exchanges exercised. */
  readonly coverage = new Coverage();
  /** Answers over the cap, forwarded unchecked, per operation. */
  readonly overCap = perOperation(0);
  /** The lm_providers_keys values clients sent: an echo of one is a finding. */
  private readonly keys = new Watched();
  /** The credentials clients sent in headers and query parameters (requestCredentials). */
  private readonly clientCredentials = new Watched();
  /** The credentials of the target URL and headers, and every key and credential a client sent. */
  readonly redactor: Redactor;
  private readonly evidence: Evidence;

  constructor(
    private readonly target: URL,
    headers: Record<string, string>,
    private readonly maxBodyBytes: number,
    private readonly maxFindings = 1_000,
  ) {
    const credentials = credentialsOf(target, headers);
    this.redactor = new Redactor(() => [...credentials, ...this.keys.all(), ...this.clientCredentials.all()]);
    this.evidence = new Evidence(target, Object.keys(headers), (text) => this.redact(text));
    for (const id of activeOnly) this.verdicts.skip(id, 'not observable by the proxy: it sends no request of its own');
  }

  redact(text: string): string {
    return this.redactor.text(text);
  }

  /**
   * Watches the credentials a request carries, whatever its path: from now on each is redacted from every output, and
   * an answer holding one is never recorded.
   */
  watchCredentials(passage: Passage): void {
    this.clientCredentials.add(requestCredentials(passage.requestTarget, passage.requestHeaders));
  }

  /** A create request's body read (readCreateBody), or undefined when none was kept. */
  private createBody(passage: Passage): CreateBody {
    if (passage.requestBody === undefined) return undefined;
    const { sent, content } = passage.requestBody;
    const read = readCreateBody(content);
    return 'unreadable' in read ? { ...read, bytes: sent.length, text: read.text ?? sent.toString('utf8') } : read;
  }

  /** What the client sent, and what it was for: over the cap, only what every answer must satisfy is judged. */
  private sentOf(passage: Passage, route: Route, body: CreateBody): Sent {
    const { operation } = route;
    const shown = body === undefined ? undefined : 'unreadable' in body ? unreadablePlaceholder(body.bytes) : body.text;
    const outgoing: Outgoing = {
      method: operationTable[operationOfKey(operation)].method,
      path: passage.path,
      headers: replayHeaders(passage.requestHeaders),
      ...(shown !== undefined ? { body: shown, contentType: passage.requestHeaders['content-type'] } : {}),
    };
    if (passage.overCap) return { operation, outgoing, role: { kind: 'repeat' } };
    if (!operationByKey(operation).request)
      return { operation, outgoing, role: { kind: 'expected', id: fetchedId(route), unvouched: passiveTraffic } };
    const problem = invalidity(passage, body);
    const accepted = (status: number) =>
      `${labelOf(outgoing)}: an invalid create request (${problem}) was accepted with ${status}`;
    const role: Role = problem
      ? { kind: 'invalid', accepted }
      : { kind: 'expected', request: (body as { request: Fields }).request, unvouched: passiveTraffic };
    return { operation, outgoing, role };
  }

  /** Judges a passage of one of the two operations, `route` being its operation (operationOf). */
  judge(passage: Passage, route: Route): Judgement | undefined {
    if (passage.abandoned || passage.unreachable) return undefined;
    // Only a create request's body is read: it names the keys to watch and what the answer must match.
    const body = operationByKey(route.operation).request ? this.createBody(passage) : undefined;
    if (body && 'request' in body) this.keys.add(providerKeys(body.request));
    if (body && 'unreadable' in body) this.keys.add(keysInUnreadable(body.text));
    const sent = this.sentOf(passage, route, body);
    const exchange = exchangeOf(passage, sent.outgoing, this.target);
    const verdicts = new Verdicts();
    const seen = new Observation(sent, exchange, this.keys.values());
    judgeExchange(verdicts, seen, this.evidence);
    this.coverage.observe(seen);
    if (body && 'unreadable' in body)
      verdicts.note(
        route.operation,
        `${seen.label}: a request body that cannot be read (${body.unreadable}) is shown as a placeholder in every ` +
          'output: any provider key in it cannot be watched for',
      );
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
