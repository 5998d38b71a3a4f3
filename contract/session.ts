import { operations, type OperationKey } from './catalogue.js';
import { send, type ClientOptions, type Exchange } from './http-client.js';
import { headerPlaceholder, type Canaries } from './secrets.js';
import { shellQuote as quote } from './shell.js';
import type { Verdicts } from './verdicts.js';

export interface Outgoing {
  method: 'GET' | 'POST';
  /** Relative to the base URL, e.g. `/evaluations`. */
  path: string;
  body?: string;
  contentType?: string;
}

/** Raised when the very first request finds nothing listening: the run stops and the CLI exits 2. */
export class UnreachableError extends Error {}

/** Raised when the deployment keeps hanging: every further request would cost a full timeout. */
export class RunStopped extends Error {}

/** Timeouts tolerated before the run stops, so a hanging deployment costs seconds, not minutes. */
const maxTimeouts = 2;

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

  constructor(
    private readonly baseUrl: URL,
    private readonly headers: Record<string, string>,
    private readonly client: ClientOptions,
    readonly verdicts: Verdicts,
    readonly canaries: Canaries,
  ) {}

  /**
   * The text with every canary and every header value the user gave replaced by a placeholder: whatever a
   * deployment echoes into a finding, a note or a reproduction never reaches the output in clear. Header values
   * shorter than 4 characters are left alone; replacing every "1" would garble findings and protect nothing.
   */
  redact(text: string): string {
    return Object.entries(this.headers)
      .filter(([, value]) => value.length >= 4)
      .reduce((out, [name, value]) => out.split(value).join(headerPlaceholder(name)), this.canaries.redact(text));
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
    const parts = [`curl -sS -i -X ${outgoing.method}`, quote(this.url(outgoing.path).toString())];
    if (outgoing.body !== undefined) parts.push('-H', quote(`Content-Type: ${outgoing.contentType ?? 'application/json'}`));
    for (const name of Object.keys(this.headers)) parts.push('-H', quote(`${name}: ${headerPlaceholder(name)}`));
    if (outgoing.body !== undefined) parts.push('--data-binary', quote(this.redact(outgoing.body)));
    return parts.join(' ');
  }

  /** `POST /evaluations`: how the report names an exchange; never headers, never a body. */
  label(outgoing: Outgoing): string {
    return `${outgoing.method} ${outgoing.path}`;
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
    if (first && exchange.failure?.kind === 'unreachable') {
      throw new UnreachableError(`${operations[operation]}: ${exchange.failure.message}`);
    }
    if (exchange.failure?.kind === 'timeout') this.timeouts++;
    const label = this.label(outgoing);
    const { failure } = exchange;
    if (judged) {
      this.verdicts.expect(`${operation}.transport`, failure ? `${label}: ${failure.message}` : undefined);
      if (exchange.status !== undefined) {
        this.verdicts.expect(`${operation}.status.5xx`, exchange.status >= 500 ? `${label} answered ${exchange.status}` : undefined);
      }
    }
    const echoes = this.canaries.echoes(exchange);
    if (this.canaries.all().length > 0) {
      this.verdicts.expect('create.secrets.echo', echoes.length > 0 ? `${label} (${exchange.status ?? 'no status'}) echoed a submitted lm_providers_keys value in ${echoes.join(' and ')}` : undefined);
    }
    return exchange;
  }
}
