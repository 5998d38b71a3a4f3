import { maxHeaderSize, request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest, type RequestOptions } from 'node:https';
import { answerBody } from './decoded-body.js';
import { describeSize } from './excerpt.js';
import {
  exchangeRecord,
  type Answer,
  type Exchange,
  type Failure,
  type FailureKind,
  type HttpRequest,
} from './exchange.js';
import { defaultTimeoutMs } from './timeouts.js';

export interface ClientOptions {
  timeoutMs: number;
  maxBodyBytes: number;
  /** PEM certificates of the CAs to trust instead of Node's bundle (--ca). */
  ca?: string;
  /** No certificate verification at all (--insecure). */
  insecure?: boolean;
}

export const defaultClientOptions: ClientOptions = { timeoutMs: defaultTimeoutMs, maxBodyBytes: 4 * 1024 * 1024 };

const maxRedirects = 5;

/** Codes that mean the host is not there, as opposed to a host that answered badly, each in words. */
const unreachableReasons: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'nothing listens at that host and port',
  ENOTFOUND: 'the host name does not resolve',
  EAI_AGAIN: 'the host name could not be resolved (DNS did not answer)',
  EHOSTUNREACH: 'no route to the host',
  ENETUNREACH: 'no route to its network',
  EADDRNOTAVAIL: 'the address is not available from this machine',
};

/** What one hop (one request, no redirect followed) got back: an exchange but for its request and redirects. */
type Hop = Answer;

/** Node's codes for a certificate that does not verify, each with what it means and the way out. */
const certificateProblems: Record<string, string> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: 'the certificate is self-signed: pass its PEM with --ca FILE',
  SELF_SIGNED_CERT_IN_CHAIN: "the certificate chain ends in a self-signed CA: pass that CA's PEM with --ca FILE",
  CERT_HAS_EXPIRED: 'the certificate has expired: renew it on the deployment',
  CERT_NOT_YET_VALID: "the certificate is not valid yet: check the deployment's clock and certificate",
  ERR_TLS_CERT_ALTNAME_INVALID: 'the certificate does not name this host: use a host name it names in --base-url',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: "the certificate was issued by an unknown CA: pass the CA's PEM with --ca FILE",
  UNABLE_TO_GET_ISSUER_CERT: "the certificate was issued by an unknown CA: pass the CA's PEM with --ca FILE",
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: "the certificate was issued by an unknown CA: pass the CA's PEM with --ca FILE",
};

/**
 * An answer Node's HTTP parser refused (its `HPE_` codes), in words: what the deployment sent was not HTTP/1.1 as
 * clients read it, which no connection retry changes.
 */
function unparsable(code: string): string {
  if (code === 'HPE_HEADER_OVERFLOW')
    return `the answer's headers pass ${describeSize(maxHeaderSize)}, more than Node's clients read (${code})`;
  return `the answer is not valid HTTP/1.1 (${code})`;
}

/** Codes of a peer that closed the connection; on a reused keep-alive socket before any answer, a race, not a fault. */
const closedCodes = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED']);

/**
 * The keep-alive race: a request on a reused socket met a closed connection before any answer. It is worth sending
 * once more on a fresh connection; the one rule of the contract client and the proxy (which can resend only a
 * request whose body it still has: one without a body).
 */
export function isKeepAliveRace(
  request: { reusedSocket: boolean },
  error: NodeJS.ErrnoException,
  answered: boolean,
): boolean {
  return !answered && request.reusedSocket && closedCodes.has(error.code ?? '');
}

/**
 * One request, no redirect handling: always resolves, never rejects, whatever the peer does. A request that failed
 * on a reused keep-alive socket before any response byte is sent once more on a fresh connection, as browsers and
 * undici do: servers such as uvicorn close an idle or errored connection without `Connection: close`, and the
 * next request on it meets a reset that says nothing about the deployment.
 */
async function hop(req: HttpRequest, options: ClientOptions): Promise<Hop> {
  const { retry, ...first } = await attempt(req, options, false);
  if (!retry) return first;
  const second = await attempt(req, options, true);
  // Closed, then refused: the deployment went down under this request, which is no setup problem.
  return second.failure?.kind === 'unreachable'
    ? {
        ...second,
        failure: {
          kind: 'dropped',
          message: `the connection was closed before an answer and new ones are refused (${second.failure.message})`,
        },
      }
    : second;
}

function attempt(req: HttpRequest, options: ClientOptions, fresh: boolean): Promise<Hop & { retry?: boolean }> {
  return new Promise((resolve) => {
    let settled = false;
    let connected = false;
    let response: IncomingMessage | undefined;
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = (failure?: Failure, retry = false) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      const headers = response?.headers ?? {};
      // Read as a browser reads it: RFC 9110 §12.5.3 lets a server pick any coding for a request without
      // Accept-Encoding, and one whose body does not decode as its header says is unreadable to every client.
      resolve(
        answerBody(Buffer.concat(chunks), headers['content-encoding'], options.maxBodyBytes, failure).then((body) => ({
          status: response?.statusCode,
          headers,
          ...body,
          ...(retry ? { retry } : {}),
        })),
      );
      outgoing.destroy();
    };
    const send = req.url.protocol === 'https:' ? httpsRequest : httpRequest;
    const tls: RequestOptions =
      req.url.protocol === 'https:'
        ? { ...(options.ca ? { ca: options.ca } : {}), ...(options.insecure ? { rejectUnauthorized: false } : {}) }
        : {};
    const outgoing = send(req.url, {
      method: req.method,
      headers: req.headers,
      ...tls,
      ...(fresh ? { agent: false } : {}),
    });
    const timer = setTimeout(() => {
      const kind: FailureKind = connected ? 'timeout' : 'unreachable';
      settle({
        kind,
        message: connected
          ? `no complete answer within ${options.timeoutMs} ms`
          : `could not connect within ${options.timeoutMs} ms`,
      });
    }, options.timeoutMs);
    outgoing.on('socket', (socket) => {
      // A reused keep-alive socket is connected already and never emits 'connect' again.
      if (socket.connecting) socket.once('connect', () => (connected = true));
      else connected = true;
    });
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      const code = error.code ?? '';
      if (!fresh && isKeepAliveRace(outgoing, error, response !== undefined))
        settle({ kind: 'dropped', message: 'the reused connection was closed' }, true);
      else if (!connected && Object.hasOwn(unreachableReasons, code))
        settle({ kind: 'unreachable', message: `cannot connect: ${unreachableReasons[code]} (${code})` });
      else if (certificateProblems[code])
        settle({
          kind: 'certificate',
          message:
            `TLS certificate rejected (${code}): ${certificateProblems[code]}, ` + 'or --insecure to skip verification',
        });
      else if (code.startsWith('HPE_')) settle({ kind: 'dropped', message: unparsable(code) });
      else if (response) settle({ kind: 'truncated', message: 'the connection closed before the body was complete' });
      else
        settle({
          kind: 'dropped',
          message: `the connection was dropped before an answer (${error.code ?? error.message})`,
        });
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
      incoming.on('error', () =>
        settle({ kind: 'truncated', message: 'the connection closed before the body was complete' }),
      );
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
    if (answer.failure || !isRedirect(answer.status) || location === undefined)
      return exchangeRecord(req, answer, redirects);
    let target: URL;
    try {
      target = new URL(location, current.url);
    } catch {
      return exchangeRecord(req, answer, redirects);
    }
    if (target.origin !== req.url.origin) {
      const failure: Failure = {
        kind: 'cross-origin-redirect',
        message: `redirected (${answer.status}) to another origin, ${target.origin}; not followed`,
      };
      return exchangeRecord(req, { ...answer, failure }, redirects);
    }
    if (redirects.length >= maxRedirects) {
      const failure: Failure = { kind: 'redirect-loop', message: `more than ${maxRedirects} redirects` };
      return exchangeRecord(req, { ...answer, failure }, redirects);
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
