import { capped, describeSize } from '../../http/excerpt.js';
import type { Received } from '../../http/exchange.js';
import { headerPlaceholder } from '../../http/placeholders.js';
import { publicUrl } from '../../http/redaction.js';
import { shellQuote as quote } from '../../http/shell.js';
import type { Outgoing } from './sent.js';
import type { Excerpts } from './verdicts.js';

/**
 * What a report shows of an exchange besides its findings: a curl command that replays the request and excerpts of
 * the request and the answer, every credential replaced by its placeholder.
 */
/** The longest body a curl line prints: a command line's argument is capped at 128 KiB (Linux's MAX_ARG_STRLEN). */
const maxCurlBody = 64 * 1024;

export class Evidence {
  constructor(
    private readonly baseUrl: URL,
    /** The names of the headers sent with every request; their values are never shown. */
    private readonly headerNames: readonly string[],
    private readonly redact: (text: string) => string,
  ) {}

  /** The request's URL: its path under the base URL's path, with its own query, never the base URL's. */
  url({ path, query }: Pick<Outgoing, 'path' | 'query'>): URL {
    const url = new URL(this.baseUrl);
    url.pathname = `${this.baseUrl.pathname.replace(/\/+$/, '')}${path}`;
    url.search = query ?? '';
    url.hash = '';
    return url;
  }

  /**
   * A curl command that replays a request: canaries become <PROVIDER_KEY>, the user's header values placeholders.
   * `--compressed` asks for and decodes the codings the run asked for, so an answer only a compressing deployment
   * breaks is broken in the reproduction too.
   */
  curl(outgoing: Outgoing): string {
    const parts = [`curl -sS -i --compressed -X ${outgoing.method}`, quote(publicUrl(this.url(outgoing)))];
    if (outgoing.body !== undefined)
      parts.push('-H', quote(`Content-Type: ${outgoing.contentType ?? 'application/json'}`));
    for (const name of this.headerNames) parts.push('-H', quote(`${name}: ${headerPlaceholder(name)}`));
    for (const [name, value] of Object.entries(outgoing.headers ?? {}))
      parts.push('-H', quote(this.redact(`${name}: ${value}`)));
    if (outgoing.body === undefined) return parts.join(' ');
    const body = this.redact(outgoing.body);
    if (body.length <= maxCurlBody) return [...parts, '--data-binary', quote(body)].join(' ');
    // Past what one argument of a command line can carry (Linux: 128 KiB), the body is named, not printed.
    const from = outgoing.bodyFrom ? `the body of ${outgoing.bodyFrom}` : 'the body the run sent';
    return `${[...parts, '--data-binary', '@body.json'].join(' ')}  # body.json: ${from} (${describeSize(
      Buffer.byteLength(body),
    )}, too long to print)`;
  }

  /**
   * The request and the answer as a person reads them, redacted before they are cut, so a credential can never survive
   * in a cut prefix.
   */
  excerpts(outgoing: Outgoing, exchange: Received): Excerpts {
    const request = [
      `${outgoing.method} ${this.url(outgoing).pathname}`,
      ...(outgoing.body !== undefined ? ['', outgoing.body] : []),
    ].join('\n');
    const type = exchange.headers['content-type'];
    const status =
      exchange.status === undefined ? `no answer (${exchange.failure?.message ?? 'none'})` : `HTTP ${exchange.status}`;
    const response = [status, ...(type !== undefined ? [`content-type: ${type}`] : []), '', exchange.body].join('\n');
    return { request: capped(this.redact(request)), response: capped(this.redact(response)) };
  }
}
