import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import type { ContractProxy, ProxyOptions } from '../../contract/index.js';
import { startProxyWith, type Judgement, type ProxySeams, type RecordingEvent } from '../../proxy/index.js';

/** What a client gets back, whole: status, the headers a proxy must not touch, and the exact bytes. */
export async function answer(
  url: string,
  init?: RequestInit,
): Promise<{ status: number; type: string | null; bytes: Buffer }> {
  const response = await fetch(url, init);
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    bytes: Buffer.from(await response.arrayBuffer()),
  };
}

export function postJson(body: unknown): RequestInit {
  return { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
}

/** Everything a test file started, undone by `closeAll` (afterEach). */
const closers: Array<() => Promise<void>> = [];

export function onClose(close: () => Promise<void>): void {
  closers.push(close);
}

export async function closeAll(): Promise<void> {
  await Promise.all(closers.splice(0).map((close) => close()));
}

export interface Watched {
  proxy: ContractProxy;
  judgements: Judgement[];
  recordings: RecordingEvent[];
}

export async function proxyTo(
  target: string,
  options: Partial<ProxyOptions> = {},
  seams: ProxySeams = {},
): Promise<Watched> {
  const judgements: Judgement[] = [];
  const recordings: RecordingEvent[] = [];
  const proxy = await startProxyWith(
    {
      target,
      port: 0,
      onJudgement: (j) => judgements.push(j),
      onRecording: (r) => recordings.push(r),
      ...options,
    },
    seams,
  );
  onClose(() => proxy.close());
  return { proxy, judgements, recordings };
}

/** A server on 127.0.0.1 for shapes no bank entry has; keeps every request it gets. */
export interface Plain {
  url: string;
  hits(): number;
  requests: IncomingMessage[];
}

export async function plain(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<Plain> {
  const requests: IncomingMessage[] = [];
  const server = createServer((req, res) => {
    requests.push(req);
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onClose(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits: () => requests.length,
    requests,
  };
}

/** Waits until the proxy has counted `count` exchanges: judging follows the answer, it never delays it. */
export async function judged(watched: Watched, count: number): Promise<void> {
  for (let tries = 0; watched.proxy.traffic().forwarded < count && tries < 200; tries++)
    await new Promise((resolve) => setTimeout(resolve, 10));
}

/** Waits until the proxy has told of `count` recordings made or refused. */
export async function recorded(watched: Watched, count: number): Promise<void> {
  for (let tries = 0; watched.recordings.length < count && tries < 200; tries++)
    await new Promise((resolve) => setTimeout(resolve, 10));
}

export function failedIds(proxy: ContractProxy): string[] {
  return proxy
    .report()
    .checks.filter((check) => check.outcome === 'failed')
    .map((check) => check.id);
}

/**
 * Bytes written on a raw socket, for what fetch() would never send (request targets, framing); resolves to all the
 * proxy wrote back once it closes the connection.
 */
export function rawExchange(url: string, bytes: string | Buffer): Promise<string> {
  const { port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(bytes));
    let text = '';
    socket.on('data', (chunk) => (text += chunk));
    socket.on('close', () => resolve(text));
    socket.on('error', () => resolve(text));
  });
}

/** A raw request line with a Host and `Connection: close`. */
export function rawRequest(url: string, head: string): Promise<string> {
  return rawExchange(url, `${head}\r\nHost: ${new URL(url).host}\r\nConnection: close\r\n\r\n`);
}
