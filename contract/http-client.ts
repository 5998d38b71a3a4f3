import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';

export interface HttpRequest {
  method: 'GET' | 'POST';
  url: URL;
  headers: Record<string, string>;
  body?: string;
}

/**
 * Why an exchange gave no complete answer. `unreachable`: no connection could be made at all (the deployment is not
 * there); every other kind means the deployment answered badly.
 */
export type FailureKind = 'unreachable' | 'timeout' | 'dropped' | 'truncated' | 'too-large' | 'cross-origin-redirect' | 'redirect-loop';

export interface Failure {
  kind: FailureKind;
  message: string;
}

/** What one request got back. Whatever arrived is kept even on failure, so a partial body is still scanned for secrets. */
export interface Exchange {
  request: HttpRequest;
  status?: number;
  /** Lower-cased names, as node parses them. */
  headers: IncomingHttpHeaders;
  body: string;
  /** Same-origin locations followed on the way. */
  redirects: string[];
  failure?: Failure;
}

export interface ClientOptions {
  timeoutMs: number;
  maxBodyBytes: number;
}

export const defaultClientOptions: ClientOptions = { timeoutMs: 10_000, maxBodyBytes: 4 * 1024 * 1024 };

const maxRedirects = 5;

/** Codes that mean the host is not there, as opposed to a host that answered badly. */
const unreachableCodes = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'EADDRNOTAVAIL']);

interface Hop {
  status?: number;
  headers: IncomingHttpHeaders;
  body: string;
  failure?: Failure;
}

function describeSize(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MiB` : `${bytes} bytes`;
}

/** One request, no redirect handling: always resolves, never rejects, whatever the peer does. */
function hop(req: HttpRequest, options: ClientOptions): Promise<Hop> {
  return new Promise((resolve) => {
    let settled = false;
    let connected = false;
    let response: IncomingMessage | undefined;
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = (failure?: Failure) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      const body = Buffer.concat(chunks).toString('utf8');
      resolve({ status: response?.statusCode, headers: response?.headers ?? {}, body, ...(failure ? { failure } : {}) });
      outgoing.destroy();
    };
    const send = req.url.protocol === 'https:' ? httpsRequest : httpRequest;
    const outgoing = send(req.url, { method: req.method, headers: req.headers });
    const timer = setTimeout(() => {
      const kind: FailureKind = connected ? 'timeout' : 'unreachable';
      settle({ kind, message: connected ? `no complete answer within ${options.timeoutMs} ms` : `could not connect within ${options.timeoutMs} ms` });
    }, options.timeoutMs);
    outgoing.on('socket', (socket) => {
      // A reused keep-alive socket is connected already and never emits 'connect' again.
      if (socket.connecting) socket.once('connect', () => (connected = true));
      else connected = true;
    });
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      if (!connected && unreachableCodes.has(error.code ?? '')) settle({ kind: 'unreachable', message: `cannot connect (${error.code})` });
      else if (response) settle({ kind: 'truncated', message: 'the connection closed before the body was complete' });
      else settle({ kind: 'dropped', message: `the connection was dropped before an answer (${error.code ?? error.message})` });
    });
    outgoing.on('response', (incoming) => {
      response = incoming;
      incoming.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > options.maxBodyBytes) {
          settle({ kind: 'too-large', message: `the body exceeds the ${describeSize(options.maxBodyBytes)} cap` });
          return;
        }
        chunks.push(chunk);
      });
      incoming.on('error', () => settle({ kind: 'truncated', message: 'the connection closed before the body was complete' }));
      incoming.on('close', () => {
        if (incoming.complete) settle();
        else settle({ kind: 'truncated', message: 'the connection closed before the body was complete' });
      });
    });
    outgoing.end(req.body);
  });
}

function isRedirect(status: number | undefined): boolean {
  return status === 301 || status === 302 || status === 303 || status === 307 || status === 308;
}

/**
 * Sends a request and follows redirects within the same origin only: the user's headers (credentials) must never
 * travel to another origin, so a cross-origin redirect ends the exchange as a reported failure.
 */
export async function send(req: HttpRequest, options: ClientOptions = defaultClientOptions): Promise<Exchange> {
  const redirects: string[] = [];
  let current = req;
  for (;;) {
    const answer = await hop(current, options);
    const location = answer.headers.location;
    if (answer.failure || !isRedirect(answer.status) || location === undefined) return { request: req, redirects, ...answer };
    let target: URL;
    try {
      target = new URL(location, current.url);
    } catch {
      return { request: req, redirects, ...answer };
    }
    if (target.origin !== req.url.origin) {
      return { request: req, redirects, ...answer, failure: { kind: 'cross-origin-redirect', message: `redirected (${answer.status}) to another origin, ${target.origin}; not followed` } };
    }
    if (redirects.length >= maxRedirects) {
      return { request: req, redirects, ...answer, failure: { kind: 'redirect-loop', message: `more than ${maxRedirects} redirects` } };
    }
    redirects.push(target.pathname);
    // 307 and 308 repeat the request as sent; the older codes turn it into a GET, as every HTTP client does.
    current =
      answer.status === 307 || answer.status === 308
        ? { ...current, url: target }
        : { method: 'GET', url: target, headers: withoutBodyHeaders(current.headers) };
  }
}

function withoutBodyHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !/^content-(type|length)$/i.test(name)));
}

/** The media type of a Content-Type header, lower-cased, without parameters. */
export function mediaType(headers: IncomingHttpHeaders): string | undefined {
  return headers['content-type']?.split(';')[0]?.trim().toLowerCase();
}

/** application/json and the +json suffix types (problem+json and the like). */
export function isJsonMediaType(type: string | undefined): boolean {
  return type !== undefined && (type === 'application/json' || /^application\/[\w.+-]+\+json$/.test(type));
}
