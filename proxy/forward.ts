import {
  Agent as HttpAgent,
  createServer,
  request as httpRequest,
  type ClientRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type Server,
  type ServerResponse,
} from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { pathOf } from '../api/match.js';
import { isKeepAliveRace } from '../http/client.js';
import { answerBody, contentOf, decodableAcceptEncoding, type Content } from '../http/decoded-body.js';
import type { Answer, Failure } from '../http/exchange.js';
import { endToEnd } from '../http/hop-by-hop.js';
import { parseRefusal, refusalOf } from './refusals.js';

/**
 * One request and its answer as they passed through, with what was kept of their bodies for checking. Its answer is
 * the contract client's (Answer: status, headers, the body decoded as a browser decodes it, how its bytes decoded, a
 * failure), so the judge reads the one exchange record of both (exchangeRecord).
 */
export interface Passage extends Answer {
  method: string;
  /** The path as the client sent it, relative to the target's base path, without the query. */
  path: string;
  /** The request target as the client sent it, query included. */
  requestTarget: string;
  requestHeaders: IncomingHttpHeaders;
  /**
   * The request body, kept only for inspected requests within the cap, and only when it has bytes: as sent
   * (Content-Encoding still on), and its content.
   */
  requestBody?: { sent: Buffer; content: Content };
  /** The request or the answer was larger than the cap: forwarded whole, kept not at all. */
  overCap: boolean;
  /** Nothing listened at the target: the client got a 502. */
  unreachable: boolean;
  /** The client went away before the answer was complete: nothing to judge the deployment by. */
  abandoned: boolean;
  /** The proxy stopped while the exchange was open: cut, not judged. */
  cutByShutdown: boolean;
}

/** A passage as it starts: the request's line and headers, nothing answered yet. */
export function passageOf(method: string, requestTarget: string, requestHeaders: IncomingHttpHeaders): Passage {
  return {
    method,
    path: pathOf(requestTarget),
    requestTarget,
    requestHeaders,
    headers: {},
    body: '',
    bodyBytes: 0,
    overCap: false,
    unreachable: false,
    abandoned: false,
    cutByShutdown: false,
  };
}

export interface ForwardOptions {
  /** The deployment; its path is the base path every request path is appended to. */
  target: URL;
  /** Set on every forwarded request (auth for the deployment), replacing the client's header of the same name. */
  headers: Record<string, string>;
  /** No byte from the target for this long ends the exchange: a 504 before the answer started, a cut after. */
  timeoutMs: number;
  /** Bodies kept for checking up to this size; larger ones are forwarded whole and not kept. */
  maxBodyBytes: number;
  /** Whether a request's bodies are kept for checking (the two operations); others stream through untouched. */
  inspect(method: string, path: string): boolean;
  /**
   * Called once per request, after the client has its answer (or the exchange ended) and the bodies kept are decoded,
   * in the order the exchanges ended.
   */
  passed(passage: Passage): void;
  port: number;
  host: string;
}

export interface Forwarder {
  /** The proxy's own base URL, e.g. `http://127.0.0.1:4011`. */
  url: string;
  close(): Promise<void>;
}

function jsonAnswer(res: ServerResponse, status: number, body: Record<string, string>, close = false): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    // A request refused for its framing may have left bytes on the connection that no parser should read.
    ...(close ? { connection: 'close' } : {}),
  });
  res.end(text);
}

/** Collects a stream's first `max` bytes; past that it keeps nothing and says so. */
class Keeper {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  over = false;

  constructor(private readonly max: number) {}

  add(chunk: Buffer): void {
    if (this.over) return;
    this.size += chunk.length;
    if (this.size > this.max) {
      this.over = true;
      this.chunks.length = 0;
      return;
    }
    this.chunks.push(chunk);
  }

  bytes(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

function describeError(error: NodeJS.ErrnoException): string {
  return error.code ? `${error.code} (${error.message})` : error.message;
}

/** The target, and how to reach it, shared by every request the proxy forwards. */
interface Upstream {
  options: ForwardOptions;
  /** The target's path without its trailing slash: every request path is appended to it. */
  basePath: string;
  /** How messages name the target: its origin and base path. */
  name: string;
  agent: HttpAgent | HttpsAgent;
  send: typeof httpRequest;
}

function upstreamOf(options: ForwardOptions): Upstream {
  const { target } = options;
  const basePath = target.pathname.replace(/\/+$/, '');
  const secure = target.protocol === 'https:';
  return {
    options,
    basePath,
    name: `${target.origin}${basePath}`,
    agent: secure ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true }),
    send: secure ? httpsRequest : httpRequest,
  };
}

/**
 * The request's headers as the target gets them: end-to-end ones only, those the proxy is given replacing the
 * client's of the same name, and Host the target's. An inspected request asks only for codings the judge can undo
 * (decodableAcceptEncoding), so its answer is judged whatever else the client lists.
 */
function upstreamHeaders(
  req: IncomingMessage,
  given: Record<string, string>,
  target: URL,
  inspected: boolean,
): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = {};
  const kept = endToEnd(req.rawHeaders, 'request');
  for (let index = 0; index + 1 < kept.length; index += 2) {
    const name = kept[index] as string;
    const value = kept[index + 1] as string;
    const existing = headers[name];
    headers[name] = existing === undefined ? value : ([] as string[]).concat(existing as string | string[], value);
  }
  const replaced = new Set(Object.keys(given).map((name) => name.toLowerCase()));
  for (const name of Object.keys(headers)) if (replaced.has(name.toLowerCase())) delete headers[name];
  const accepted = req.headers['accept-encoding'];
  if (inspected && accepted !== undefined)
    for (const name of Object.keys(headers))
      if (name.toLowerCase() === 'accept-encoding') headers[name] = decodableAcceptEncoding(accepted);
  return Object.assign(headers, given, { host: target.host });
}

/**
 * One request's passage as it is forwarded: what is kept of its bodies, reported once whatever ends it, as the
 * passage it resolves to once those bodies are decoded.
 */
class PassageRecord {
  readonly passage: Passage;
  private readonly requestKept: Keeper;
  private readonly answerKept: Keeper;
  private reported = false;

  constructor(
    req: IncomingMessage,
    readonly inspected: boolean,
    private readonly maxBodyBytes: number,
    private readonly passed: (reading: Promise<Passage>) => void,
  ) {
    this.passage = passageOf(req.method ?? 'GET', req.url ?? '', req.headers);
    this.requestKept = new Keeper(maxBodyBytes);
    this.answerKept = new Keeper(maxBodyBytes);
  }

  get done(): boolean {
    return this.reported;
  }

  requestChunk(chunk: Buffer): void {
    if (this.inspected) this.requestKept.add(chunk);
  }

  answerChunk(chunk: Buffer): void {
    if (this.inspected) this.answerKept.add(chunk);
  }

  report(failure?: Failure): void {
    if (this.reported) return;
    this.reported = true;
    this.passed(this.inspected ? this.read(failure) : Promise.resolve(this.passage));
  }

  /** The passage with the bodies kept of it decoded. */
  private async read(failure: Failure | undefined): Promise<Passage> {
    const { passage, maxBodyBytes } = this;
    passage.overCap = this.requestKept.over || this.answerKept.over;
    const sent = this.requestKept.bytes();
    const [content, answer] = await Promise.all([
      this.requestKept.over || sent.length === 0
        ? undefined
        : contentOf(sent, passage.requestHeaders['content-encoding'], maxBodyBytes),
      answerBody(this.answerKept.bytes(), passage.headers['content-encoding'], maxBodyBytes, failure),
    ]);
    if (content) passage.requestBody = { sent, content };
    return Object.assign(passage, answer);
  }
}

const truncated: Failure = { kind: 'truncated', message: 'the connection closed before the body was complete' };

/**
 * One request forwarded to the target and its answer streamed back. A keep-alive connection the target closed just
 * as it was reused answered nothing: a request that carried no body is sent again once, on a new connection (the
 * contract client's rule, isKeepAliveRace).
 */
class Forwarding {
  private upstream: ClientRequest | undefined;
  private requestBytes = 0;
  private connected = false;
  private readonly headers: OutgoingHttpHeaders;

  constructor(
    private readonly target: Upstream,
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
    private readonly record: PassageRecord,
  ) {
    this.headers = upstreamHeaders(req, target.options.headers, target.options.target, record.inspected);
    req.on('data', (chunk: Buffer) => {
      this.requestBytes += chunk.length;
      record.requestChunk(chunk);
    });
    res.on('finish', () => record.report());
    res.on('close', () => {
      if (res.writableFinished || record.done) return;
      record.passage.abandoned = true;
      this.upstream?.destroy();
      record.report();
    });
  }

  open(retry: boolean): void {
    const { target, timeoutMs } = this.target.options;
    const upstream = this.target.send({
      protocol: target.protocol,
      hostname: target.hostname,
      port: target.port,
      method: this.record.passage.method,
      path: `${this.target.basePath}${this.req.url ?? ''}`,
      headers: this.headers,
      agent: this.target.agent,
    });
    this.upstream = upstream;
    this.connected = false;
    upstream.on('socket', (socket: Socket) => {
      if (socket.connecting) socket.once('connect', () => (this.connected = true));
      else this.connected = true;
    });
    upstream.setTimeout(timeoutMs, () => this.timedOut(upstream));
    upstream.on('error', (error: NodeJS.ErrnoException) => this.failed(upstream, error, retry));
    upstream.on('response', (incoming) => this.answered(incoming));
    if (retry) upstream.end();
    else this.req.pipe(upstream);
  }

  /** No byte from the target for the timeout: a 504 before the answer started, a cut after. */
  private timedOut(upstream: ClientRequest): void {
    const { timeoutMs } = this.target.options;
    if (!this.res.headersSent)
      jsonAnswer(this.res, 504, {
        detail: `the target did not answer within ${timeoutMs} ms`,
        target: this.target.name,
        cause: 'timeout',
      });
    else this.res.destroy();
    this.record.report({ kind: 'timeout', message: `no byte from the target for ${timeoutMs} ms` });
    upstream.destroy();
  }

  private failed(upstream: ClientRequest, error: NodeJS.ErrnoException, retried: boolean): void {
    const { res, record } = this;
    if (record.done) return;
    const resendable = !retried && this.req.readableEnded && this.requestBytes === 0;
    if (resendable && isKeepAliveRace(upstream, error, res.headersSent)) return this.open(true);
    if (!this.connected) record.passage.unreachable = true;
    if (res.headersSent) {
      res.destroy();
      record.report(truncated);
      return;
    }
    jsonAnswer(res, 502, {
      detail: this.connected
        ? 'the target dropped the connection before answering'
        : 'the proxy could not reach its target',
      target: this.target.name,
      cause: describeError(error),
    });
    record.report(
      this.connected
        ? { kind: 'dropped', message: `the connection was dropped before an answer (${error.code ?? error.message})` }
        : undefined,
    );
  }

  private answered(incoming: IncomingMessage): void {
    const { res, record } = this;
    record.passage.status = incoming.statusCode;
    record.passage.headers = incoming.headers;
    res.writeHead(incoming.statusCode ?? 502, incoming.statusMessage, endToEnd(incoming.rawHeaders, 'answer'));
    incoming.on('data', (chunk: Buffer) => record.answerChunk(chunk));
    incoming.pipe(res);
    incoming.on('close', () => {
      if (incoming.complete) return;
      res.destroy();
      record.report(truncated);
    });
  }
}

/** Answers on the raw socket what is no HTTP request the proxy forwards (CONNECT, a request that is not HTTP). */
function refuseOnSocket(socket: Duplex, status: string, detail: string, target: Upstream): void {
  const body = JSON.stringify({ detail, target: target.name });
  const head = [
    `HTTP/1.1 ${status}`,
    'Content-Type: application/json',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
  ];
  if (socket.writable) socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
  else socket.destroy();
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/**
 * The reverse proxy: each request goes to the target alone, whatever its request line names, and each answer streams
 * back as it arrives, status and headers unchanged but for hop-by-hop headers. Bodies of inspected requests are kept
 * up to the cap, so memory stays bounded whatever the body size.
 */
export async function startForwarding(options: ForwardOptions): Promise<Forwarder> {
  const target = upstreamOf(options);
  const open = new Set<PassageRecord>();
  let drained: (() => void) | undefined;
  // Passages are passed on in the order they ended, however long their bodies take to decode: the keys a create
  // request sent are watched before the answers that followed it are judged.
  let passing = Promise.resolve();
  const server: Server = createServer((req, res) => {
    const refusal = refusalOf(req, target.name);
    if (refusal !== undefined) return jsonAnswer(res, 400, { detail: refusal, target: target.name }, true);
    const inspected = options.inspect(req.method ?? 'GET', pathOf(req.url ?? ''));
    const record = new PassageRecord(req, inspected, options.maxBodyBytes, (reading) => {
      passing = passing.then(async () => {
        const passage = await reading;
        open.delete(record);
        options.passed(passage);
        if (open.size === 0) drained?.();
      });
    });
    open.add(record);
    new Forwarding(target, req, res, record).open(false);
  });
  server.on('connect', (_req, socket: Duplex) =>
    refuseOnSocket(
      socket,
      '405 Method Not Allowed',
      `CONNECT is refused: this proxy forwards only to ${target.name}`,
      target,
    ),
  );
  server.on('clientError', (error: Error, socket: Duplex) => {
    const { status, detail } = parseRefusal(error);
    refuseOnSocket(socket, status, detail, target);
  });
  await listen(server, options.port, options.host);
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${port}`,
    close: async () => {
      // Whatever is open now is cut by the shutdown: reported as cut, not judged as the target's doing. An exchange
      // that ended and is being decoded is not cut.
      for (const record of open) if (!record.done) record.passage.cutByShutdown = true;
      const reported = open.size === 0 ? Promise.resolve() : new Promise<void>((resolve) => (drained = resolve));
      await new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
        target.agent.destroy();
      });
      // Each cut exchange reports as its connection closes: the report counts them all.
      await reported;
    },
  };
}
