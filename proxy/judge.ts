import { formatIssue, validate } from '../schemas/validators/index.js';
import { type OperationKey } from '../contract/catalogue.js';
import { createPath, checkCreateAnswer } from '../contract/checks/create.js';
import { checkFetchAnswer } from '../contract/checks/fetch.js';
import { defaultClientOptions } from '../contract/http-client.js';
import { isJsonMediaType, mediaType } from '../http/media-type.js';
import { type Exchange } from '../http/exchange.js';
import { credentialsOf, redactReport, type Redactor } from '../contract/redaction.js';
import { credentialField } from '../api/credentials.js';
import { Canaries } from '../contract/secrets.js';
import { isSuccess, Session, type Outgoing } from '../contract/session.js';
import { Verdicts, type CheckResult } from '../contract/verdicts.js';
import type { Passage } from './forward.js';

/** Which operation of the spec a request is, by method and path relative to the base path; undefined for any other. */
export function operationOf(method: string, path: string): { operation: OperationKey; id?: string } | undefined {
  if (method === 'POST' && path === createPath) return { operation: 'create' };
  const match = /^\/human-evaluations\/([^/]+)$/.exec(path);
  if (method !== 'GET' || !match) return undefined;
  try {
    return { operation: 'fetch', id: decodeURIComponent(match[1] as string) };
  } catch {
    return undefined;
  }
}

/** A proxied request names ids nobody vouched for: a 4xx for them is the client's business, not a finding. */
const passiveTraffic = { what: 'a proxied request', remedy: 'the proxy judges only the answers that succeed' };

/** Checks only an active run can make: the proxy sends nothing of its own. */
const activeOnly = [
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
 * Judges each exchange of one of the two operations with the contract suite's own checks, one exchange at a time,
 * and keeps the run's verdicts. Every lm_providers_keys value a client sends is watched: found in any answer it is
 * an echo, and it is redacted from every output.
 */
export class ExchangeJudge {
  readonly verdicts = new Verdicts();
  /** No canary is ever made here: only the credentials clients send are watched. */
  readonly canaries = new Canaries('proxy');
  /** Answers over the cap, forwarded unchecked, per operation. */
  readonly overCap = { fetch: 0, create: 0 };

  constructor(
    private readonly target: URL,
    private readonly headers: Record<string, string>,
    private readonly maxBodyBytes: number,
    private readonly maxFindings = 1_000,
  ) {
    for (const id of activeOnly) this.verdicts.skip(id, 'not observable by the proxy: it sends no request of its own');
  }

  /** A session over one exchange's verdicts: its redaction, curl reproductions and exchange-wide checks. */
  private session(verdicts: Verdicts): Session {
    return new Session(
      this.target,
      this.headers,
      defaultClientOptions,
      verdicts,
      this.canaries,
      credentialsOf(this.target, this.headers),
      { concurrency: 1 },
    );
  }

  /** The credentials of the target URL and headers, and every lm_providers_keys value a client sent. */
  get redactor(): Redactor {
    return this.session(this.verdicts).redactor;
  }

  redact(text: string): string {
    return this.redactor.text(text);
  }

  judge(passage: Passage): Judgement | undefined {
    const route = operationOf(passage.method, passage.path);
    if (!route || passage.abandoned || passage.unreachable) return undefined;
    // Only a create request's body is read: it names the credentials to watch and what the answer must match.
    const requestBody = route.operation === 'create' ? passage.requestBody : undefined;
    let request: unknown;
    try {
      request = requestBody === undefined ? undefined : JSON.parse(requestBody);
    } catch {
      request = undefined;
    }
    const keys = (request as Record<string, unknown> | undefined)?.[credentialField];
    if (keys && typeof keys === 'object')
      for (const value of Object.values(keys)) if (typeof value === 'string') this.canaries.watch(value);

    const contentType = passage.requestHeaders['content-type'];
    const outgoing: Outgoing = {
      method: route.operation === 'create' ? 'POST' : 'GET',
      path: passage.path,
      ...(requestBody !== undefined ? { body: requestBody, contentType } : {}),
    };
    const exchange: Exchange = {
      request: {
        method: outgoing.method,
        url: new URL(this.target),
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
    const verdicts = new Verdicts();
    const session = this.session(verdicts);
    const label = session.label(outgoing);
    session.judge(route.operation, outgoing, exchange);
    if (passage.overCap) {
      this.overCap[route.operation]++;
      verdicts.note(
        route.operation,
        `a request or answer over the ${this.maxBodyBytes}-byte cap was forwarded unchecked`,
      );
    } else if (route.operation === 'fetch') {
      checkFetchAnswer(verdicts, route.id as string, label, exchange, passiveTraffic);
    } else {
      const problem = !isJsonMediaType(mediaType(passage.requestHeaders))
        ? `Content-Type ${contentType ?? '(none)'}`
        : request === undefined
          ? 'a missing or malformed JSON body'
          : validate('CreateEvaluationRequest', request).issues.map(formatIssue).join(', ');
      if (problem)
        verdicts.expect(
          'create.invalid.rejected',
          isSuccess(exchange)
            ? `${label}: an invalid create request (${problem}) was accepted with ${exchange.status}`
            : undefined,
        );
      else checkCreateAnswer(verdicts, request as Record<string, unknown>, label, exchange, passiveTraffic);
    }
    // Violations print live, before any report exists: each goes through the same redaction as the report will.
    const failed = verdicts
      .results()
      .filter((check) => check.outcome === 'failed')
      .map((check) => redactReport(check, session.redactor));
    this.verdicts.absorb(verdicts, this.maxFindings, (text) => session.redact(text));
    return {
      operation: route.operation,
      label,
      failed,
      ...(exchange.status !== undefined ? { status: exchange.status } : {}),
    };
  }
}
