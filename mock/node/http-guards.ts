import {
  createServer,
  STATUS_CODES,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { Duplex } from 'node:stream';
import { allowMethods, cors, type CorsOrigins } from '../core/cors.js';
import { isControlRoomUrl } from '../control/prefix.js';
import { HttpProblem } from '../core/errors.js';
import { problemAnswer } from '../core/request-answer.js';
import { headersTimeoutMs, maxBodyBytes, maxHeaderFields, requestTimeoutMs } from '../core/limits.js';
import { MockSetupError } from '../core/setup-error.js';
import { deliver } from './deliver.js';

/** How long a client may take to send a request; the defaults are limits.ts's. */
export interface TimeBounds {
  /** To receive the request line and headers. Default 30 s. */
  headersTimeoutMs?: number;
  /** To receive the whole request, body included. Default 30 s; at least headersTimeoutMs. */
  requestTimeoutMs?: number;
}

export interface GuardOptions extends TimeBounds {
  /** The app's CORS setting, so a browser can read the answers given here too. Default `*`. */
  cors?: false | CorsOrigins;
}

/**
 * Once an answer is written on a broken connection, how long the client has to read it before the socket is destroyed.
 */
const lingerMs = 1_000;

const close = { Connection: 'close' };
const headersTooLarge = new HttpProblem(431, 'The request line and headers exceed 16 KiB (a very long id?)', close);
const notHttp = new HttpProblem(400, 'The request is not valid HTTP', close);
const tooManyFields = new HttpProblem(431, `The request has more than ${maxHeaderFields} header fields`, close);
const twoHosts = new HttpProblem(400, 'The request has more than one Host header', close);
const otherAuthority = new HttpProblem(400, 'The request target names another host than its Host header', close);
const oldFraming = new HttpProblem(
  400,
  'Transfer-Encoding in an HTTP/1.0 request: its framing cannot be trusted (RFC 9112 §6.1)',
  close,
);
const transferCodings = new HttpProblem(
  400,
  'Transfer-Encoding must be chunked alone (a Content-Encoding names how the body is compressed)',
  close,
);
const missingHost = new HttpProblem(400, 'An HTTP/1.1 request must have a Host header', close);
const bodyTooLarge = new HttpProblem(
  413,
  `Content-Length is over the ${maxBodyBytes / 2 ** 20} MiB limit: the body was not read`,
  close,
);
const unknownExpectation = new HttpProblem(417, 'Expect: only 100-continue is supported', close);
const noTunnels = new HttpProblem(405, 'CONNECT is not supported: this mock is a server, not a proxy', {
  Allow: allowMethods,
  ...close,
});

/** A problem as raw HTTP, for sockets Node hands over without a response object. */
function rawAnswer(problem: HttpProblem): Buffer {
  const headers = Object.entries(problem.headers ?? {}).map(([name, value]) => `${name}: ${value}\r\n`);
  const head =
    `HTTP/1.1 ${problem.status} ${STATUS_CODES[problem.status]}\r\nContent-Type: application/json\r\n` +
    `Content-Length: ${problem.body.length}\r\n${headers.join('')}\r\n`;
  return Buffer.concat([Buffer.from(head), problem.body]);
}

/**
 * Ends a connection with an answer. http.Server sockets are half-open, so a client that never closes its side would
 * keep the socket forever: it is destroyed once the client has had time to read the answer.
 */
function answerAndClose(socket: Duplex, problem: HttpProblem): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  socket.end(rawAnswer(problem));
  const timer = setTimeout(() => socket.destroy(), lingerMs);
  socket.once('close', () => clearTimeout(timer));
}

/**
 * The 400 of a parser error, naming what llhttp found (its reasons are fixed texts, never the bytes sent): both
 * Content-Length and Transfer-Encoding, two lengths, a bare LF, an obs-fold, an invalid character...
 */
function parseProblem(error: NodeJS.ErrnoException & { reason?: unknown }): HttpProblem {
  const reason = typeof error.reason === 'string' && /^[\x20-\x7e]{1,100}$/.test(error.reason) ? error.reason : '';
  return reason === '' ? notHttp : new HttpProblem(400, `The request is not valid HTTP: ${reason}`, close);
}

/** Whether an absolute-form target (`GET http://host/path`) names an authority other than the Host header. */
function namesOtherAuthority(req: IncomingMessage): boolean {
  const url = req.url ?? '/';
  if (url.startsWith('/')) return false;
  try {
    return new URL(url).host !== new URL(`http://${req.headers.host ?? ''}`).host;
  } catch {
    return true;
  }
}

/**
 * What the node:http level refuses before the app sees a request: what llhttp lets through but leaves the framing or
 * the authority in doubt (two Hosts, a target naming another host, a transfer coding other than chunked, chunked in
 * HTTP/1.0), more header fields than maxHeaderFields (node would drop the rest silently), no Host in HTTP/1.1, a
 * declared body over the limit. The answer closes the connection: a body left unread must not be taken for a request.
 */
function requestProblem(req: IncomingMessage): HttpProblem | undefined {
  // node keeps one more field than the limit (maxHeadersCount), so a longer list shows as exactly that many.
  if (req.rawHeaders.length / 2 > maxHeaderFields) return tooManyFields;
  let hosts = 0;
  for (let index = 0; index < req.rawHeaders.length; index += 2)
    if ((req.rawHeaders[index] as string).toLowerCase() === 'host') hosts++;
  if (hosts > 1) return twoHosts;
  if (req.headers.host === undefined && req.httpVersionMajor === 1 && req.httpVersionMinor >= 1) return missingHost;
  if (namesOtherAuthority(req)) return otherAuthority;
  const transfer = req.headers['transfer-encoding'];
  if (transfer !== undefined) {
    if (req.httpVersionMajor === 1 && req.httpVersionMinor === 0) return oldFraming;
    if (transfer.trim().toLowerCase() !== 'chunked') return transferCodings;
  }
  if (Number(req.headers['content-length']) > maxBodyBytes) return bodyTooLarge;
  return undefined;
}

/**
 * Answers a request refused at this level, with the CORS headers the app would have added (a browser reads nothing
 * without).
 */
function refuser(origins: false | CorsOrigins): (req: IncomingMessage, res: ServerResponse) => boolean {
  const withCors = origins === false ? undefined : cors(origins);
  return (req, res) => {
    const problem = requestProblem(req);
    if (!problem) return false;
    const headers: Record<string, string> = {};
    // The core's CORS step only fills in headers, except for a preflight (the one case where it would answer or throw
    // itself): that is an OPTIONS, left without CORS here. The control room grants no CORS at all, refusals included.
    if (withCors && req.method !== 'OPTIONS' && !isControlRoomUrl(req.url ?? '/'))
      withCors({ method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers }, headers);
    deliver(res, problemAnswer(problem, headers));
    return true;
  };
}

/**
 * The bounds with defaults filled in: one bound given alone moves the other default as far as it must to stay valid.
 */
function timeBounds(bounds: TimeBounds): Required<TimeBounds> {
  for (const [name, value] of Object.entries(bounds)) {
    if (value !== undefined && (!Number.isInteger(value) || value <= 0))
      throw new MockSetupError(`${name} must be a positive integer of milliseconds, not ${value}`);
  }
  const headers = bounds.headersTimeoutMs ?? Math.min(headersTimeoutMs, bounds.requestTimeoutMs ?? headersTimeoutMs);
  const request = bounds.requestTimeoutMs ?? Math.max(requestTimeoutMs, headers);
  if (request < headers)
    throw new MockSetupError(`requestTimeoutMs (${request}) must be at least headersTimeoutMs (${headers})`);
  return { headersTimeoutMs: headers, requestTimeoutMs: request };
}

/**
 * An HTTP server for the app that holds against clients that break the protocol or take their time: a slow request
 * gets a JSON 408, a body declared over the limit a 413 before a byte of it is read, `Expect: 100-continue` a 100 only
 * when the app starts reading the body (a 415 or 404 goes out without one), another `Expect` a 417, an HTTP/1.1
 * request without Host a 400, CONNECT a 405: each with a JSON body naming the problem, as every other answer has.
 */
export function createGuardedServer(app: RequestListener, options: GuardOptions = {}): Server {
  // startMockServer hands over all its options: only the bounds are read here.
  const { headersTimeoutMs: headersTimeout, requestTimeoutMs: requestTimeout } = timeBounds({
    headersTimeoutMs: options.headersTimeoutMs,
    requestTimeoutMs: options.requestTimeoutMs,
  });
  const refused = refuser(options.cors ?? '*');
  const server = createServer(
    {
      headersTimeout,
      requestTimeout,
      // Node checks the bounds at this interval (30 s by default, which would double a 30 s bound).
      connectionsCheckingInterval: Math.min(1_000, Math.ceil(headersTimeout / 4)),
      // Node's own check answers an empty 400; requestProblem answers it in JSON.
      requireHostHeader: false,
    },
    (req, res) => {
      if (!refused(req, res)) app(req, res);
    },
  );
  // One more than the limit, so requestProblem can tell a list over it from one at it.
  server.maxHeadersCount = maxHeaderFields + 1;
  const timedOut = new HttpProblem(
    408,
    `The request was not received in full within ${requestTimeout / 1000} s`,
    close,
  );
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // Node's own handler makes the same check: an answer already under way must not be corrupted by another.
    const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
    if (inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    const code = error.code;
    answerAndClose(
      socket,
      code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? timedOut
        : code === 'HPE_HEADER_OVERFLOW'
          ? headersTooLarge
          : parseProblem(error),
    );
  });
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    if (refused(req, res)) return;
    // The 100 goes out when the app starts reading the body; an app that answers without reading sends none.
    req.once('resume', () => {
      if (!res.headersSent) res.writeContinue();
    });
    app(req, res);
  });
  server.on('checkExpectation', (_req: IncomingMessage, res: ServerResponse) =>
    deliver(res, problemAnswer(unknownExpectation, {})),
  );
  server.on('connect', (_req: IncomingMessage, socket: Duplex) => answerAndClose(socket, noTunnels));
  return server;
}
