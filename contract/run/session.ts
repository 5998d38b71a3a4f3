import { operationLabel, operationOfKey } from '../../api/operations.js';
import { send, type ClientOptions } from '../../http/client.js';
import { acceptedCodings } from '../../http/decoded-body.js';
import type { Exchange } from '../../http/exchange.js';
import { secretPlaceholder } from '../../http/placeholders.js';
import { Redactor, type Secret } from '../../http/redaction.js';
import { catalogue, type CheckId } from '../judge/catalogue.js';
import { Coverage } from '../judge/coverage.js';
import { echoPlaces } from '../judge/echoes.js';
import { judgeExchange } from '../judge/judge.js';
import { Observation } from '../judge/observation.js';
import { Evidence } from '../judge/evidence.js';
import { labelOf, type Outgoing, type Sent } from '../judge/sent.js';
import type { Verdicts } from '../judge/verdicts.js';
import type { PacingReport, RateLimitedCounts } from '../report/model.js';
import type { MockComparer } from '../compare/comparison.js';
import type { Canaries } from './canaries.js';
import { Pacer, type PacingOptions } from './pacing.js';
import { sendRetryingAfter429 } from './retry-after.js';
import { SendAhead } from './send-ahead.js';

/**
 * Raised when the very first request finds nothing listening, or a certificate that does not verify: the run
 * stops and the CLI exits 2.
 */
export class UnreachableError extends Error {}

/** Raised when the deployment keeps hanging: every further request would cost a full timeout. */
export class RunStopped extends Error {}

/** Timeouts tolerated before the run stops, so a hanging deployment costs seconds, not minutes. */
const maxTimeouts = 2;

const errorLevel: ReadonlySet<CheckId> = new Set(
  catalogue.filter((check) => check.severity === 'error').map((check) => check.id),
);

/** A check whose failure is the deployment breaking the spec, not a warning's advice. */
const isErrorLevel = (id: CheckId) => errorLevel.has(id);

/** Two identical requests share a key; their answers are taken in the order they were sent. */
function requestKey(outgoing: Outgoing): string {
  const headers = JSON.stringify(outgoing.headers ?? {});
  return `${outgoing.method} ${outgoing.path} ${outgoing.contentType ?? ''} ${headers}\n${outgoing.body ?? ''}`;
}

/** A request that reached the deployment: its place in the run's order, and what became of it. */
interface Reached {
  index: number;
  sent: Sent;
  exchange: Exchange;
}

/** Where a run sends, with what, and what it knows to keep out of every output. */
export interface SessionTarget {
  baseUrl: URL;
  headers: Record<string, string>;
  client: ClientOptions;
  /** What the user gave as credentials (base URL, headers, their own provider keys). */
  secrets: readonly Secret[];
  pacing: PacingOptions;
  /** With --compare-mock: asks the mock each request the deployment answered. */
  comparer?: MockComparer;
}

/**
 * Sends every request of a run with the user's headers, paced and sent ahead, waiting out 429s, and has each answer
 * judged by the catalogue's checks as it is taken, in the run's own order.
 */
export class Session {
  private answered = 0;
  private timeouts = 0;
  private readonly pacer: Pacer;
  private readonly ahead: SendAhead;
  private readonly rateLimited: RateLimitedCounts = { retried: 0, beyondTimeout: 0, waitedMs: 0 };
  private readonly evidence: Evidence;
  private lastReached: Reached | undefined;
  /**
   * Set once a request fails to connect after earlier ones got through: the deployment went away. Requests after
   * that are not judged, so no check passes on them; the report says after which request it stopped answering.
   */
  private stop: { summary: string; curl: string } | undefined;
  /** What the judged exchanges exercised. */
  readonly coverage = new Coverage();
  readonly redactor: Redactor;

  constructor(
    private readonly target: SessionTarget,
    readonly verdicts: Verdicts,
    readonly canaries: Canaries,
  ) {
    this.redactor = new Redactor(() => [
      ...target.secrets,
      ...canaries.all().map((value) => ({ value, placeholder: secretPlaceholder })),
    ]);
    this.pacer = new Pacer(target.pacing);
    this.ahead = new SendAhead(this.pacer, maxTimeouts);
    this.evidence = new Evidence(target.baseUrl, Object.keys(target.headers), (text) => this.redact(text));
  }

  /** The text with every credential and canary replaced by its placeholder. */
  redact(text: string): string {
    return this.redactor.text(text);
  }

  /** Requests sent so far, 429 retries and redirects not counted. */
  get requests(): number {
    return this.ahead.sent;
  }

  get pacing(): PacingReport {
    return { ...this.pacer.options, rateLimited: { ...this.rateLimited } };
  }

  /** A curl command that replays a request, credentials as placeholders. */
  curl(outgoing: Outgoing): string {
    return this.evidence.curl(outgoing);
  }

  /**
   * Sends these requests now, as many at once as the pacing allows, for `request` to judge later in the callers' own
   * order: whatever the concurrency, answers are judged, and findings recorded, in the same order.
   */
  sendAhead(outgoings: readonly Outgoing[]): Promise<void> {
    return this.ahead.sendAll(
      outgoings.map((outgoing) => ({ key: requestKey(outgoing), send: () => this.transmit(outgoing) })),
    );
  }

  private transmit(outgoing: Outgoing): Promise<Exchange | undefined> {
    const { headers: given, client } = this.target;
    // The request's own headers (a `Prefer`) first: the user's, credentials among them, win. The codings asked for
    // are a browser's that the client decodes, so a deployment compresses for this run as it does for its users.
    const headers: Record<string, string> = {
      accept: 'application/json',
      'accept-encoding': acceptedCodings,
      ...outgoing.headers,
      ...given,
    };
    if (outgoing.body !== undefined) headers['content-type'] = outgoing.contentType ?? 'application/json';
    const request = { method: outgoing.method, url: this.evidence.url(outgoing), headers, body: outgoing.body };
    // A 429 echoing a secret is judged, not retried: a retry would hide the echo.
    const echoes = (exchange: Exchange) => echoPlaces(this.canaries.all(), exchange).length > 0;
    return sendRetryingAfter429(this.pacer, () => send(request, client), client.timeoutMs, this.rateLimited, echoes);
  }

  /**
   * Takes the answer to one request, sent ahead or sent now, and has it judged for what it was sent for. `judgeMore`
   * judges the checks its caller judges itself (a property case's) and returns those that failed, so the comparison
   * with the mock knows of them as of the catalogue's.
   */
  async request(sent: Sent, judgeMore?: (exchange: Exchange) => readonly CheckId[]): Promise<Exchange> {
    if (this.timeouts >= maxTimeouts) throw new RunStopped(this.ahead.stopReason);
    const exchange = await this.ahead.take(requestKey(sent.outgoing), () => this.transmit(sent.outgoing));
    if (exchange === undefined) throw new RunStopped(this.ahead.stopReason);
    const first = this.answered === 0;
    this.answered++;
    if ((first && exchange.failure?.kind === 'unreachable') || exchange.failure?.kind === 'certificate') {
      throw new UnreachableError(`${operationLabel(operationOfKey(sent.operation))}: ${exchange.failure.message}`);
    }
    if (exchange.failure?.kind === 'timeout') this.timeouts++;
    if (exchange.failure?.kind === 'unreachable') {
      // Never undefined here: a first request that cannot connect has ended the run (UnreachableError).
      if (this.lastReached) this.stop ??= this.stopWords(this.lastReached);
      return exchange;
    }
    this.lastReached = { index: this.answered, sent, exchange };
    const seen = new Observation(sent, exchange, this.canaries.all());
    const failed = judgeExchange(this.verdicts, seen, this.evidence).map((check) => check.id);
    this.coverage.observe(seen);
    failed.push(...(judgeMore?.(exchange) ?? []));
    await this.compareWithMock(sent, exchange, failed.filter(isErrorLevel));
    return exchange;
  }

  /**
   * Sends a request only to compare its answer with the mock's (--compare-mock), judging nothing: the run's verdict
   * is the same with or without the comparison.
   */
  async compareOnly(sent: Sent): Promise<void> {
    if (!this.target.comparer || this.timeouts >= maxTimeouts) return;
    const exchange = await this.transmit(sent.outgoing);
    if (exchange === undefined) return;
    if (exchange.failure?.kind === 'timeout') this.timeouts++;
    await this.compareWithMock(sent, exchange);
  }

  /**
   * The same request asked of the mock, both answers kept for the comparison; only answers that arrived.
   * `failedChecks`: the error-level checks the deployment's answer failed, which tell its own violations apart.
   */
  private async compareWithMock(sent: Sent, exchange: Exchange, failedChecks: readonly CheckId[] = []): Promise<void> {
    const comparer = this.target.comparer;
    if (!comparer || exchange.failure) return;
    const { outgoing } = sent;
    const request = {
      method: outgoing.method,
      path: `${outgoing.path}${outgoing.query ? `?${outgoing.query}` : ''}`,
      headers: exchange.request.headers,
      ...(outgoing.body !== undefined ? { body: outgoing.body } : {}),
    };
    await comparer.compare(labelOf(outgoing), sent.operation, request, exchange, failedChecks);
  }

  /**
   * An answer already judged and compared failed this error-level check too, as later requests showed (the run's
   * judgement across requests): its differences from the mock's answer are the deployment's own violation.
   */
  alsoFailed(exchange: Exchange, check: CheckId): void {
    if (isErrorLevel(check)) this.target.comparer?.alsoFailed(exchange, check);
  }

  /** After which request the deployment stopped answering, what that request got, and how to send it again. */
  private stopWords(last: Reached): { summary: string; curl: string } {
    const { exchange, sent } = last;
    const got = exchange.failure ? exchange.failure.message : `answered ${exchange.status}`;
    return {
      summary: `the deployment stopped answering after request ${last.index} (${labelOf(sent.outgoing)}: ${got})`,
      curl: `; every later request failed to connect. Request ${last.index}: ${this.curl(sent.outgoing)}`,
    };
  }

  /** Why checks after the deployment went away were not evaluated, in a few words; undefined while it answers. */
  get stoppedAfter(): string | undefined {
    return this.stop?.summary;
  }

  /** The same, with the request to send again to see it happen: the report's `stopped`. */
  get stoppedAnswering(): string | undefined {
    return this.stop && `${this.stop.summary}${this.stop.curl}`;
  }
}
