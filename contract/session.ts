import { operations, type OperationKey } from './catalogue.js';
import { excerpt } from './excerpt.js';
import { send, type ClientOptions, type Exchange } from './http-client.js';
import { headerPlaceholder, publicUrl, Redactor, type Secret } from './redaction.js';
import { secretPlaceholder, type Canaries } from './secrets.js';
import type { Verdicts } from './verdicts.js';

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

function quote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
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
  private sent = 0;
  private timeouts = 0;
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
  ) {
    this.redactor = new Redactor(() => [...secrets, ...canaries.all().map((value) => ({ value, placeholder: secretPlaceholder }))]);
  }

  /** The text with every credential and canary replaced by its placeholder. */
  redact(text: string): string {
    return this.redactor.text(text);
  }

  /** Requests sent so far. */
  get requests(): number {
    return this.sent;
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
    if (outgoing.body !== undefined) parts.push('-H', quote(`Content-Type: ${outgoing.contentType ?? 'application/json'}`));
    for (const name of Object.keys(this.headers)) parts.push('-H', quote(`${name}: ${headerPlaceholder(name)}`));
    if (outgoing.body !== undefined) parts.push('--data-binary', quote(this.redact(outgoing.body)));
    return parts.join(' ');
  }

  /** `POST /evaluations`: how the report names an exchange; never headers, never a body. */
  label(outgoing: Outgoing): string {
    return `${outgoing.method} ${outgoing.path}${outgoing.what ? ` (${outgoing.what})` : ''}`;
  }

  /**
   * Sends one request. `judged: false` (property cases, which report through their own checks) leaves the
   * transport and 5xx checks alone; secrets are scanned in every response whatever it was for.
   */
  async request(operation: OperationKey, outgoing: Outgoing, judged = true): Promise<Exchange> {
    if (this.timeouts >= maxTimeouts) throw new RunStopped(`stopped after ${maxTimeouts} requests timed out`);
    const headers: Record<string, string> = { accept: 'application/json', ...this.headers };
    if (outgoing.body !== undefined) headers['content-type'] = outgoing.contentType ?? 'application/json';
    const exchange = await send({ method: outgoing.method, url: this.url(outgoing.path), headers, body: outgoing.body }, this.client);
    if (judged) this.verdicts.judging(this.curl(outgoing));
    const first = this.sent === 0;
    this.sent++;
    if ((first && exchange.failure?.kind === 'unreachable') || exchange.failure?.kind === 'certificate') {
      throw new UnreachableError(`${operations[operation]}: ${exchange.failure.message}`);
    }
    if (exchange.status !== undefined) this.statuses.set(exchange.status, (this.statuses.get(exchange.status) ?? 0) + 1);
    if (exchange.failure?.kind === 'timeout') this.timeouts++;
    const label = this.label(outgoing);
    const { failure } = exchange;
    if (judged) {
      this.verdicts.expect(`${operation}.transport`, failure ? `${label}: ${failure.message}` : undefined);
      if (exchange.status !== undefined) {
        this.verdicts.expect(`${operation}.status.5xx`, exchange.status >= 500 ? `${label} ${serverErrorFinding(exchange)}` : undefined);
      }
    }
    // Only an answer can be scanned: a request that got none proves nothing about echoes.
    const echoes = this.canaries.echoes(exchange);
    if (this.canaries.all().length > 0 && exchange.status !== undefined) {
      this.verdicts.expect('create.secrets.echo', echoes.length > 0 ? `${label} (${exchange.status ?? 'no status'}) echoed a submitted lm_providers_keys value in ${echoes.join(' and ')}` : undefined);
    }
    return exchange;
  }
}
