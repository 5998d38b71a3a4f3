import { randomBytes } from 'node:crypto';
import { request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { endToEnd } from '../../http/hop-by-hop.js';
import { isLoopbackHost } from '../control/allowed-hosts.js';
import { maxBodyBytes } from '../core/limits.js';
import { jsonAnswer, type MockAnswer, type RequestHeaders } from '../core/request-answer.js';
import { tooLarge } from '../core/request-body.js';
import { withoutSessionPrefix } from '../core/sessions.js';
import { serialize } from '../core/serialize.js';
import { MockSetupError } from '../core/setup-error.js';
import { deliver } from './deliver.js';

/** How long a passed-through request waits for a byte of the origin before a 504: never a hang. */
const defaultPassthroughTimeoutMs = 30_000;

/** `--passthrough URL` checked: an http(s) origin (scheme, host, port), nothing else, or a MockSetupError. */
export function passthroughOrigin(text: string): URL {
  const url = URL.canParse(text) ? new URL(text) : undefined;
  const shown = text.slice(0, 100);
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    throw new MockSetupError(
      `--passthrough '${shown}' is not an http(s) URL: pass an origin like http://localhost:8000`,
    );
  // A credential in the URL would be printed with the origin in every 502; a path would be a rewrite, not a pass.
  if (url.username !== '' || url.password !== '')
    throw new MockSetupError(
      '--passthrough takes no user or password in the URL: the client sends its own credentials',
    );
  if (url.pathname !== '/' || url.search !== '' || url.hash !== '')
    throw new MockSetupError(
      `--passthrough '${shown}' has a path, query or fragment: pass the origin only (requests keep their own path)`,
    );
  return url;
}

/** Addresses a server listens on every interface by: one of them is the loopback. */
const wildcardHosts = new Set(['0.0.0.0', '::', '[::]']);

function isThisMachine(host: string): boolean {
  return wildcardHosts.has(host) || isLoopbackHost(host);
}

/**
 * Whether the origin is the mock itself, listening on `host` and `port` (known only once it listens, for `--port 0`):
 * the same port, and the same host or both this machine's (loopback names, `0.0.0.0`). Every request the mock does
 * not serve would come back to it, and again, until the process runs out of sockets.
 */
export function isOwnAddress(target: URL, host: string, port: number): boolean {
  const targetPort = Number(target.port || (target.protocol === 'https:' ? 443 : 80));
  if (targetPort !== port) return false;
  const name = target.hostname;
  const own = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return name === own.toLowerCase() || (isThisMachine(name) && isThisMachine(own));
}

/** The start-up refusal of an origin that is the mock's own address. */
export function ownAddressProblem(target: URL): MockSetupError {
  return new MockSetupError(
    `--passthrough ${target.origin} is this mock's own address: every request it does not serve would come back to ` +
      "it, over and over (a loop); pass the real backend's origin",
  );
}

/**
 * The name this mock gives itself in the `Via` header it adds to what it forwards (RFC 9110 §7.6.3: a pseudonym as
 * received-by): random per mock, so two mocks chained on purpose are told apart, and a request that comes back
 * carrying this one has gone round a loop.
 */
function viaPseudonym(): string {
  return `evalkit-mock-${randomBytes(6).toString('hex')}`;
}

/** Whether a request's `Via` (every line, each a comma-separated list) names this mock as a hop it already passed. */
function cameBack(req: IncomingMessage, pseudonym: string): boolean {
  const via = req.headers.via;
  if (via === undefined) return false;
  return via.split(',').some((hop) => hop.trim().split(/\s+/)[1] === pseudonym);
}

/** What a passed-through request came to, for the journal: no body of either side is kept (they are another API's). */
interface PassedThrough {
  status: number;
  /** As node:http parsed them: names in lower case, credentials not yet redacted. */
  answerHeaders: RequestHeaders;
  requestBytes: number;
  answerBytes: number;
  /**
   * The mock's own answer when the origin gave none (unreachable, silent, a loop, a body past the limit): the journal
   * keeps it, since it is the mock's and says why, where it keeps none of the origin's.
   */
  own?: MockAnswer;
}

/** Forwards one request the mock does not serve, streaming its answer back; `done` once the exchange is over. */
export type Passthrough = (req: IncomingMessage, res: ServerResponse, done: (passed: PassedThrough) => void) => void;

/** Answers in the origin's stead, or cuts an answer already under way; returns what it delivered. */
function problem(
  res: ServerResponse,
  status: number,
  origin: string,
  detail: string,
  cause: string,
): MockAnswer | undefined {
  if (res.headersSent) {
    res.destroy();
    return undefined;
  }
  const answer = jsonAnswer(status, serialize({ detail, origin, cause }), { Connection: 'close' });
  deliver(res, answer);
  return answer;
}

/**
 * The request's end-to-end headers as a raw list, as sent (names in their case, each repeat its own line, in order),
 * with the origin's Host: an object would merge `X-A` and `x-a` into one.
 */
function forwardedHeaders(req: IncomingMessage, target: URL, pseudonym: string): string[] {
  return [...endToEnd(req.rawHeaders, 'request'), 'Via', `${req.httpVersion} ${pseudonym}`, 'Host', target.host];
}

/**
 * The pass-through of `evalkit mock --passthrough URL`, as Prism's proxy mode and MSW's `bypass` let a team mock part
 * of an API: a request goes to the origin as it came (method, path and query, end-to-end headers, body streamed within
 * the mock's 1 MiB limit), its answer comes back as the origin gave it. An origin that cannot be reached gets a 502,
 * one that sends no byte for `timeoutMs` a 504, each a JSON body naming the origin and the cause. Each forwarded
 * request carries a `Via` of this mock's; one that comes back with it (the origin, or a gateway behind it, forwards to
 * the mock) is a loop, answered 508 and not forwarded again.
 */
export function passthroughTo(target: URL, timeoutMs = defaultPassthroughTimeoutMs): Passthrough {
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  const origin = target.origin;
  const pseudonym = viaPseudonym();
  return (req, res, done) => {
    let requestBytes = 0;
    let answerBytes = 0;
    let status = 0;
    let answerHeaders: RequestHeaders = {};
    let own: MockAnswer | undefined;
    const answerItself = (code: number, detail: string, cause: string): void => {
      const said = problem(res, code, origin, detail, cause);
      own ??= said;
    };
    res.once('close', () =>
      done({ status: status || res.statusCode, answerHeaders, requestBytes, answerBytes, ...(own && { own }) }),
    );
    if (cameBack(req, pseudonym)) {
      req.resume();
      return answerItself(
        508,
        `the request came back to this mock through its passthrough (its Via names ${pseudonym}, this mock): ` +
          `${origin} forwards to the mock, a loop; point --passthrough at the real backend`,
        'loop',
      );
    }
    const upstream = send({
      protocol: target.protocol,
      hostname: target.hostname,
      port: target.port,
      method: req.method,
      path: withoutSessionPrefix(req.url ?? '/'),
      headers: forwardedHeaders(req, target, pseudonym),
    });
    upstream.setTimeout(timeoutMs, () => {
      answerItself(504, `the passthrough origin sent nothing within ${timeoutMs} ms`, 'timeout');
      upstream.destroy();
    });
    upstream.on('error', (error: NodeJS.ErrnoException) =>
      answerItself(502, 'the passthrough origin could not be reached', error.code ?? error.message),
    );
    upstream.on('response', (incoming) => {
      status = incoming.statusCode ?? 502;
      answerHeaders = incoming.headers;
      res.writeHead(status, incoming.statusMessage, endToEnd(incoming.rawHeaders, 'answer'));
      incoming.on('data', (chunk: Buffer) => (answerBytes += chunk.length));
      incoming.pipe(res);
      incoming.once('close', () => {
        if (!incoming.complete) res.destroy();
      });
    });
    // A client gone before the answer: the origin's exchange is dropped too.
    res.once('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    req.on('data', (chunk: Buffer) => {
      requestBytes += chunk.length;
      if (requestBytes <= maxBodyBytes) return;
      // A chunked body past the limit (a declared one is refused before the app): the origin gets none of the rest.
      req.unpipe(upstream);
      req.pause();
      upstream.destroy();
      answerItself(tooLarge.status, tooLarge.message, 'too-large');
    });
    req.pipe(upstream);
  };
}
