import { operations, type OperationKey } from './catalogue.js';
import { capped, excerpt } from '../http/excerpt.js';
import { send, type ClientOptions } from './http-client.js';
import { type Exchange } from '../http/exchange.js';
import { Pacer, type PacingOptions } from './pacing.js';
import { headerPlaceholder, secretPlaceholder } from '../http/placeholders.js';
import { publicUrl, Redactor, type Secret } from './redaction.js';
import { sendRetryingAfter429, type RateLimitedCounts } from './retry-after.js';
import type { Canaries } from './secrets.js';
import { SendAhead } from './send-ahead.js';
import { shellQuote as quote } from '../http/shell.js';
import type { Excerpts, Verdicts } from './verdicts.js';

export interface Outgoing {
  method: 'GET' | 'POST';
  /** Relative to the base URL, e.g. `/evaluations`. */
  path: string;
  body?: string;
  contentType?: string;
  /** What the request is, when its path does not say: `an unknown UUID`. */
  what?: string;
}

/**
 * Raised when the very first request finds nothing listening, or a certificate that does not verify: the run
 * stops and the CLI exits 2.
 */
export class UnreachableError extends Error {}

/** Raised when the deployment keeps hanging: every further request would cost a full timeout. */
export class RunStopped extends Error {}

/** Timeouts tolerated before the run stops, so a hanging deployment costs seconds, not minutes. */
const maxTimeouts = 2;

/** Two identical requests share a key; their answers are taken in the order they were sent. */
function requestKey(outgoing: Outgoing): string {
  return `${outgoing.method} ${outgoing.path} ${outgoing.contentType ?? ''}\n${outgoing.body ?? ''}`;
}

/** How the run was paced, and what 429 answers cost it. */
export interface PacingReport extends PacingOptions {
  rateLimited: RateLimitedCounts;
}

/** A 5xx in words: a server error with its status and what its body says, never a transport failure. */
export function serverErrorFinding(exchange: Exchange): string {
  return `answered ${exchange.status} (a server error): ${excerpt(exchange.body, exchange.bodyBytes)}`;
}

export function isSuccess(exchange: Exchange): boolean {
  return !exchange.failure && exchange.status !== undefined && exchange.status >= 200 && exchange.status < 300;
}

/**
 * Sends every request of a run with the user's headers, and judges what every exchange must satisfy whatever it
 * was for: a complete answer, no 5xx, no echoed secret.
 */
export class Session {
  private answered = 0;
  private timeouts = 0;
  private readonly pacer: Pacer;
  private readonly ahead: SendAhead;
  private readonly rateLimited: RateLimitedCounts = { retried: 0, beyondTimeout: 0, waitedMs: 0 };
  /** How many answers each status got, for telling why a run verified nothing. */
  readonly statuses = new Map<number, number>();
  readonly redactor: Redactor;

  constructor(
    private readonly baseUrl: URL,
    private readonly headers: Record<string, string>,
    private readonly client: ClientOptions,
    readonly verdicts: Verdicts,
    readonly canaries: Canaries,
    /** What the user gave as credentials (base URL, headers, their own provider keys). */
    secrets: readonly Secret[],
    pacing: PacingOptions,
  ) {
    this.redactor = new Redactor(() => [
      ...secrets,
      ...canaries.all().map((value) => ({ value, placeholder: secretPlaceholder })),
    ]);
    this.pacer = new Pacer(pacing);
    this.ahead = new SendAhead(this.pacer, maxTimeouts);
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

  url(path: string): URL {
    const url = new URL(this.baseUrl);
    url.pathname = `${this.baseUrl.pathname.replace(/\/+$/, '')}${path}`;
    url.search = '';
    url.hash = '';
    return url;
  }

  /** A curl command that replays a request: canaries become <PROVIDER_KEY>, the user's header values placeholders. */
  curl(outgoing: Outgoing): string {
    const parts = [`curl -sS -i -X ${outgoing.method}`, quote(publicUrl(this.url(outgoing.path)))];
    if (outgoing.body !== undefined)
      parts.push('-H', quote(`Content-Type: ${outgoing.contentType ?? 'application/json'}`));
    for (const name of Object.keys(this.headers)) parts.push('-H', quote(`${name}: ${headerPlaceholder(name)}`));
    if (outgoing.body !== undefined) parts.push('--data-binary', quote(this.redact(outgoing.body)));
    return parts.join(' ');
  }

  /** `POST /evaluations`: how the report names an exchange; never headers, never a body. */
  label(outgoing: Outgoing): string {
    return `${outgoing.method} ${outgoing.path}${outgoing.what ? ` (${outgoing.what})` : ''}`;
  }

  /**
   * The request and the answer as a person reads them, redacted before they are cut, so a credential can never survive
   * in a cut prefix.
   */
  excerpts(outgoing: Outgoing, exchange: Exchange): Excerpts {
    const request = [
      `${outgoing.method} ${this.url(outgoing.path).pathname}`,
      ...(outgoing.body !== undefined ? ['', outgoing.body] : []),
    ].join('\n');
    const type = exchange.headers['content-type'];
    const status =
      exchange.status === undefined ? `no answer (${exchange.failure?.message ?? 'none'})` : `HTTP ${exchange.status}`;
    const response = [status, ...(type !== undefined ? [`content-type: ${type}`] : []), '', exchange.body].join('\n');
    return { request: capped(this.redact(request)), response: capped(this.redact(response)) };
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
    const headers: Record<string, string> = { accept: 'application/json', ...this.headers };
    if (outgoing.body !== undefined) headers['content-type'] = outgoing.contentType ?? 'application/json';
    const request = { method: outgoing.method, url: this.url(outgoing.path), headers, body: outgoing.body };
    const echoes = (exchange: Exchange) => this.canaries.echoes(exchange).length > 0;
    return sendRetryingAfter429(
      this.pacer,
      () => send(request, this.client),
      this.client.timeoutMs,
      this.rateLimited,
      echoes,
    );
  }

  /**
   * Judges the answer to one request, sent ahead or sent now. `judged: false` (property cases, which report through
   * their own checks) leaves the transport and 5xx checks alone; secrets are scanned in every response whatever it
   * was for.
   */
  async request(operation: OperationKey, outgoing: Outgoing, judged = true): Promise<Exchange> {
    const stopped = `stopped after ${maxTimeouts} requests timed out`;
    if (this.timeouts >= maxTimeouts) throw new RunStopped(stopped);
    const exchange = await this.ahead.take(requestKey(outgoing), () => this.transmit(outgoing));
    if (exchange === undefined) throw new RunStopped(stopped);
    const first = this.answered === 0;
    this.answered++;
    if ((first && exchange.failure?.kind === 'unreachable') || exchange.failure?.kind === 'certificate') {
      throw new UnreachableError(`${operations[operation]}: ${exchange.failure.message}`);
    }
    if (exchange.status !== undefined)
      this.statuses.set(exchange.status, (this.statuses.get(exchange.status) ?? 0) + 1);
    if (exchange.failure?.kind === 'timeout') this.timeouts++;
    this.judge(operation, outgoing, exchange, judged);
    return exchange;
  }

  /**
   * What every exchange must satisfy whatever it was for: with `judged`, a complete answer and no 5xx; always, no
   * echoed secret. Public for the proxy, which judges exchanges it did not send.
   */
  judge(operation: OperationKey, outgoing: Outgoing, exchange: Exchange, judged = true): void {
    if (judged) this.verdicts.judging(this.curl(outgoing), () => this.excerpts(outgoing, exchange));
    const label = this.label(outgoing);
    const { failure } = exchange;
    if (judged) {
      this.verdicts.expect(`${operation}.transport`, failure ? `${label}: ${failure.message}` : undefined);
      if (exchange.status !== undefined) {
        this.verdicts.expect(
          `${operation}.status.5xx`,
          exchange.status >= 500 ? `${label} ${serverErrorFinding(exchange)}` : undefined,
        );
      }
    }
    // Only an answer can be scanned: a request that got none proves nothing about echoes.
    const echoes = this.canaries.echoes(exchange);
    if (this.canaries.all().length > 0 && exchange.status !== undefined) {
      this.verdicts.expect(
        'create.secrets.echo',
        echoes.length > 0
          ? `${label} (${exchange.status ?? 'no status'}) echoed a submitted lm_providers_keys value in ${echoes.join(' and ')}`
          : undefined,
      );
    }
  }
}
