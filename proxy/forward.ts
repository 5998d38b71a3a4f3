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
import { isKeepAliveRace } from '../contract/http-client.js';
import { decodeBody } from '../http/body-decoding.js';
import { type BodyEncoding, type Failure } from '../http/exchange.js';

/** One request and its answer as they passed through, with what was kept of their bodies for checking. */
export interface Passage {
  method: string;
  /** The path as the client sent it, relative to the target's base path, without the query. */
  path: string;
  requestHeaders: IncomingHttpHeaders;
  /** The request body, kept only for inspected requests and within the cap. */
  requestBody?: string;
  status?: number;
  headers: IncomingHttpHeaders;
  /** The answer body, kept only for inspected requests and within the cap, decoded as the contract client does. */
  body: string;
  bodyBytes: number;
  /** How the answer's bytes decoded (http-client's decodeBody): undefined for plain UTF-8. */
  encoding?: BodyEncoding;
  /** The request or the answer was larger than the cap: forwarded whole, kept not at all. */
  overCap: boolean;
  /** Nothing listened at the target: the client got a 502. */
  unreachable: boolean;
  /** The client went away before the answer was complete: nothing to judge the deployment by. */
  abandoned: boolean;
  failure?: Failure;
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
  /** Called once per request, after the client has its answer (or the exchange ended). */
  passed(passage: Passage): void;
  port: number;
  host: string;
}

export interface Forwarder {
  /** The proxy's own base URL, e.g. `http://127.0.0.1:4011`. */
  url: string;
  close(): Promise<void>;
}

/** RFC 9110 §7.6.1: headers of one connection, which a proxy never forwards, plus Host (set to the target's). */
const hopByHop = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'proxy-authenticate',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'expect',
]);

/** The header list without hop-by-hop headers and without those the Connection header names. */
function endToEnd(raw: string[], connection: string | string[] | undefined): string[] {
  const named = new Set(
    String(connection ?? '')
      .split(',')
      .map((name) => name.trim().toLowerCase())
      .filter(Boolean),
  );
  const kept: string[] = [];
  for (let index = 0; index + 1 < raw.length; index += 2) {
    const name = (raw[index] as string).toLowerCase();
    if (!hopByHop.has(name) && !named.has(name)) kept.push(raw[index] as string, raw[index + 1] as string);
  }
  return kept;
}

function jsonAnswer(res: ServerResponse, status: number, body: Record<string, string>): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
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

  text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }

  decoded(): { body: string; bodyBytes: number; encoding?: BodyEncoding } {
    const bytes = Buffer.concat(this.chunks);
    return { ...decodeBody(bytes), bodyBytes: bytes.length };
  }
}

function describeError(error: NodeJS.ErrnoException): string {
  return error.code ? `${error.code} (${error.message})` : error.message;
}

/**
 * The reverse proxy: each request goes to the target alone, whatever its request line names, and each answer streams
 * back as it arrives, status and headers unchanged but for hop-by-hop headers. Bodies of inspected requests are kept
 * up to the cap, so memory stays bounded whatever the body size.
 */
export async function startForwarding(options: ForwardOptions): Promise<Forwarder> {
  const { target } = options;
  const basePath = target.pathname.replace(/\/+$/, '');
  const targetName = `${target.origin}${basePath}`;
  const secure = target.protocol === 'https:';
  const agent = secure ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
  const send = secure ? httpsRequest : httpRequest;

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const raw = req.url ?? '';
    // Absolute-form (`GET http://elsewhere/`) and `*` would name another origin or none: only paths are forwarded.
    if (!raw.startsWith('/')) {
      jsonAnswer(res, 400, {
        detail: `this proxy forwards only to ${targetName}; the request target must be a path starting with /, got ${JSON.stringify(raw.slice(0, 100))}`,
      });
      return;
    }
    const method = req.method ?? 'GET';
    const path = raw.split('?')[0] as string;
    const inspected = options.inspect(method, path);
    const requestKept = new Keeper(options.maxBodyBytes);
    const answerKept = new Keeper(options.maxBodyBytes);
    const passage: Passage = {
      method,
      path,
      requestHeaders: req.headers,
      headers: {},
      body: '',
      bodyBytes: 0,
      overCap: false,
      unreachable: false,
      abandoned: false,
    };
    let reported = false;
    const report = (failure?: Failure) => {
      if (reported) return;
      reported = true;
      if (!inspected) return options.passed(passage);
      passage.requestBody = requestKept.over ? undefined : requestKept.text();
      Object.assign(passage, answerKept.decoded());
      passage.overCap = requestKept.over || answerKept.over;
      if (failure) passage.failure = failure;
      options.passed(passage);
    };

    const headers: OutgoingHttpHeaders = {};
    const kept = endToEnd(req.rawHeaders, req.headers.connection);
    for (let index = 0; index + 1 < kept.length; index += 2) {
      const name = kept[index] as string;
      const value = kept[index + 1] as string;
      const existing = headers[name];
      headers[name] = existing === undefined ? value : ([] as string[]).concat(existing as string | string[], value);
    }
    for (const name of Object.keys(headers))
      if (Object.keys(options.headers).some((given) => given.toLowerCase() === name.toLowerCase()))
        delete headers[name];
    Object.assign(headers, options.headers, { host: target.host });

    let requestBytes = 0;
    req.on('data', (chunk: Buffer) => {
      requestBytes += chunk.length;
      if (inspected) requestKept.add(chunk);
    });
    let upstream: ClientRequest;
    const open = (retry: boolean) => {
      upstream = send({
        protocol: target.protocol,
        hostname: target.hostname,
        port: target.port,
        method,
        path: `${basePath}${raw}`,
        headers,
        agent,
      });
      let connected = false;
      upstream.on('socket', (socket: Socket) => {
        if (socket.connecting) socket.once('connect', () => (connected = true));
        else connected = true;
      });
      upstream.setTimeout(options.timeoutMs, () => {
        const failure: Failure = { kind: 'timeout', message: `no byte from the target for ${options.timeoutMs} ms` };
        if (!res.headersSent)
          jsonAnswer(res, 504, {
            detail: `the target did not answer within ${options.timeoutMs} ms`,
            target: targetName,
            cause: 'timeout',
          });
        else res.destroy();
        report(failure);
        upstream.destroy();
      });
      upstream.on('error', (error: NodeJS.ErrnoException) => {
        if (reported) return;
        // A keep-alive connection the target closed just as it was reused: nothing was answered, and a request that
        // carried no body is sent again once, on a new connection: the contract client's rule (isKeepAliveRace).
        if (!retry && req.readableEnded && requestBytes === 0 && isKeepAliveRace(upstream, error, res.headersSent))
          return open(true);
        if (!connected) passage.unreachable = true;
        if (!res.headersSent) {
          jsonAnswer(res, 502, {
            detail: connected
              ? 'the target dropped the connection before answering'
              : 'the proxy could not reach its target',
            target: targetName,
            cause: describeError(error),
          });
          report(
            connected
              ? {
                  kind: 'dropped',
                  message: `the connection was dropped before an answer (${error.code ?? error.message})`,
                }
              : undefined,
          );
        } else {
          res.destroy();
          report({ kind: 'truncated', message: 'the connection closed before the body was complete' });
        }
      });
      upstream.on('response', (incoming) => {
        passage.status = incoming.statusCode;
        passage.headers = incoming.headers;
        res.writeHead(
          incoming.statusCode ?? 502,
          incoming.statusMessage,
          endToEnd(incoming.rawHeaders, incoming.headers.connection),
        );
        if (inspected) incoming.on('data', (chunk: Buffer) => answerKept.add(chunk));
        incoming.pipe(res);
        incoming.on('close', () => {
          if (incoming.complete) return;
          res.destroy();
          report({ kind: 'truncated', message: 'the connection closed before the body was complete' });
        });
      });
      if (retry) upstream.end();
      else req.pipe(upstream);
    };
    res.on('finish', () => report());
    res.on('close', () => {
      if (res.writableFinished || reported) return;
      passage.abandoned = true;
      upstream.destroy();
      report();
    });
    open(false);
  };

  const server: Server = createServer(handle);
  const refuse = (socket: Duplex, status: string, detail: string) => {
    const body = JSON.stringify({ detail, target: targetName });
    if (socket.writable)
      socket.end(
        `HTTP/1.1 ${status}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    else socket.destroy();
  };
  server.on('connect', (_req, socket: Duplex) =>
    refuse(socket, '405 Method Not Allowed', `CONNECT is refused: this proxy forwards only to ${targetName}`),
  );
  server.on('clientError', (_error, socket: Duplex) =>
    refuse(socket, '400 Bad Request', 'the request is not valid HTTP'),
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
        agent.destroy();
      }),
  };
}
