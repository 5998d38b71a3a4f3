import { perOperation, type OperationKey } from '../api/operations.js';
import { receivedOf } from '../http/exchange.js';
import { requestCredentials } from '../http/credentials.js';
import { credentialsOf, redactReport, Redactor } from '../http/redaction.js';
import type { CheckId } from '../contract/judge/catalogue.js';
import { Coverage } from '../contract/judge/coverage.js';
import { Evidence } from '../contract/judge/evidence.js';
import { judgeExchange } from '../contract/judge/judge.js';
import { Observation } from '../contract/judge/observation.js';
import { Verdicts, type CheckResult } from '../contract/judge/verdicts.js';
import { requestBodyOf, sentOf } from './client-request.js';
import type { Passage } from './forward.js';
import type { Route } from './operations.js';
import { keysInUnreadable, providerKeys, Watched } from './watched-secrets.js';

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
  /** The checks this exchange failed, redacted; those whose findings an --ignore file accepts are `accepted`. */
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
  readonly verdicts: Verdicts;
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
    target: URL,
    headers: Record<string, string>,
    private readonly maxBodyBytes: number,
    /** The ids an --ignore file lists: findings with one are accepted, live and in the report. */
    readonly accepted?: ReadonlySet<string>,
    private readonly maxFindings = 1_000,
  ) {
    this.verdicts = new Verdicts(accepted);
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

  /** Judges a passage of one of the two operations, `route` being its operation (operationOf). */
  judge(passage: Passage, route: Route): Judgement | undefined {
    if (passage.abandoned || passage.unreachable) return undefined;
    // Only a request body is read: it names the keys to watch and what the answer must match.
    const body = requestBodyOf(passage, route);
    if (body && 'request' in body) this.keys.add(providerKeys(body.request));
    if (body && 'unreadable' in body) this.keys.add(keysInUnreadable(body.text));
    const sent = sentOf(passage, route, body);
    // The answer as the judge reads it: what was sent is the passage's own (sent), never a request made up here.
    const exchange = receivedOf(passage);
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
      .results(this.accepted)
      .filter((check) => check.outcome === 'failed' || check.outcome === 'accepted')
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
