import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { send, type ClientOptions } from '../../http/client.js';

const servers: Server[] = [];
afterAll(() =>
  Promise.all(servers.map((server) => new Promise((resolve) => (server.closeAllConnections(), server.close(resolve))))),
);

async function serve(host: string, handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://${host}:${(server.address() as AddressInfo).port}`;
}

const options: ClientOptions = { timeoutMs: 500, maxBodyBytes: 1024 };
const get = (url: string, headers: Record<string, string> = {}) =>
  send({ method: 'GET', url: new URL(url), headers }, options);

describe('the contract HTTP client', () => {
  it("does not follow a redirect to another origin, so the user's headers never reach it", async () => {
    const seen: Array<string | undefined> = [];
    const other = await serve('localhost', (req, res) => {
      seen.push(req.headers.authorization);
      res.end('{}');
    });
    const origin = await serve('127.0.0.1', (_req, res) => res.writeHead(302, { location: `${other}/stolen` }).end());
    const exchange = await get(`${origin}/x`, { authorization: 'Bearer TOPSECRET' });
    expect(exchange.failure?.kind).toBe('cross-origin-redirect');
    expect(exchange.failure?.message).toContain(other);
    expect(seen).toEqual([]);
  });

  it('follows same-origin redirects, repeating a POST on 307 and turning it into a GET on 303', async () => {
    const log: string[] = [];
    const origin = await serve('127.0.0.1', (req, res) => {
      log.push(`${req.method} ${req.url}`);
      if (req.url === '/a') res.writeHead(307, { location: '/b' }).end();
      else if (req.url === '/b') res.writeHead(303, { location: '/c' }).end();
      else res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
    });
    const exchange = await send(
      { method: 'POST', url: new URL(`${origin}/a`), headers: { 'content-type': 'application/json' }, body: '{}' },
      options,
    );
    expect(exchange.status).toBe(200);
    expect(exchange.failure).toBeUndefined();
    expect(exchange.redirects).toEqual(['/b', '/c']);
    expect(log).toEqual(['POST /a', 'POST /b', 'GET /c']);
  });

  it('reports a redirect loop instead of following it forever', async () => {
    const origin = await serve('127.0.0.1', (req, res) => res.writeHead(302, { location: `${req.url}x` }).end());
    expect((await get(`${origin}/`)).failure?.kind).toBe('redirect-loop');
  });

  it('turns a truncated chunked body, an oversized body and a hang into outcomes', async () => {
    const origin = await serve('127.0.0.1', (req, res) => {
      if (req.url === '/chunked') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('[{"id":');
        setTimeout(() => res.socket?.destroy(), 10);
      } else if (req.url === '/huge') {
        res.end('x'.repeat(4096));
      }
    });
    const truncated = await get(`${origin}/chunked`);
    expect(truncated.failure?.kind).toBe('truncated');
    expect(truncated.body).toBe('[{"id":');
    expect((await get(`${origin}/huge`)).failure?.kind).toBe('too-large');
    expect((await get(`${origin}/hang`)).failure).toEqual({
      kind: 'timeout',
      message: 'no complete answer within 500 ms',
    });
  });

  it('tells a deployment that is not there from one that drops the connection', async () => {
    const dropping = await serve('127.0.0.1', (req) => req.socket.destroy());
    expect((await get(`${dropping}/`)).failure?.kind).toBe('dropped');
    const server = servers.at(-1) as Server;
    await new Promise((resolve) => server.close(resolve));
    const gone = (await get(`${dropping}/`)).failure;
    expect(gone?.kind).toBe('unreachable');
    // The code alone says little to a person reading a CI log.
    expect(gone?.message).toBe('cannot connect: nothing listens at that host and port (ECONNREFUSED)');
  });
});

/**
 * A raw HTTP/1.1 server on a socket: answers each request with `answer(n)` (n counts requests over all connections).
 */
async function rawServer(
  onRequest: (socket: Socket, n: number) => void,
): Promise<{ url: string; connections: () => number; close: () => Promise<void> }> {
  let count = 0;
  let connections = 0;
  const sockets = new Set<Socket>();
  const server = createNetServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on('error', () => undefined);
    let buffered = '';
    socket.on('data', (chunk) => {
      buffered += chunk.toString('latin1');
      // Requests here have no body (GETs): a blank line ends each.
      while (buffered.includes('\r\n\r\n')) {
        buffered = buffered.slice(buffered.indexOf('\r\n\r\n') + 4);
        onRequest(socket, count++);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    connections: () => connections,
    close: () =>
      new Promise((resolve) => (sockets.forEach((socket) => socket.destroy()), server.close(() => resolve()))),
  };
}

const okAnswer = 'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}';

describe('answers that are not HTTP as clients read it', () => {
  it.each([
    [
      'headers past the limit',
      `HTTP/1.1 200 OK\r\nX-Trace: ${'a'.repeat(20_000)}\r\nContent-Length: 2\r\n\r\n{}`,
      "the answer's headers pass 16 KiB, more than Node's clients read (HPE_HEADER_OVERFLOW)",
    ],
    ['a status line of another protocol', 'SSH-2.0-OpenSSH_9.6\r\n', 'the answer is not valid HTTP/1.1 (HPE_'],
    [
      'a broken chunk size after the headers',
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
      'the answer is not valid HTTP/1.1 (HPE_',
    ],
  ])('%s: named as such, not as a dropped connection', async (_what, bytes, message) => {
    const raw = await rawServer((socket) => socket.write(bytes));
    try {
      const exchange = await get(`${raw.url}/`);
      expect(exchange.failure?.message).toContain(message);
      expect(exchange.failure?.message).not.toMatch(/dropped|closed before/);
    } finally {
      await raw.close();
    }
  });
});

describe('keep-alive races and connections closed after an answer', () => {
  it('retries once on a fresh connection when a reused socket is closed before any response byte', async () => {
    // Like uvicorn: answers in full without Connection: close, and the kept-alive socket is closed when the next
    // request arrives on it (the keep-alive timer ran out as it was sent).
    const server = await rawServer((socket, n) => (n === 1 ? socket.destroy() : socket.write(okAnswer)));
    try {
      const first = await get(`${server.url}/a`);
      const second = await get(`${server.url}/b`);
      expect(first.failure).toBeUndefined();
      expect(second.failure).toBeUndefined();
      expect(second.status).toBe(200);
      expect(server.connections()).toBe(2);
    } finally {
      await server.close();
    }
  });

  it('still reports a fresh connection dropped before an answer, after one retry at most', async () => {
    const server = await rawServer((socket, n) => (n === 0 ? socket.write(okAnswer) : socket.destroy()));
    try {
      await get(`${server.url}/a`);
      const dropped = await get(`${server.url}/b`);
      expect(dropped.failure?.kind).toBe('dropped');
      // The reused socket, then one fresh connection: no more.
      expect(server.connections()).toBe(2);
    } finally {
      await server.close();
    }
  });

  it.each([
    ['HTTP/1.0 with a close-delimited body', 'HTTP/1.0 200 OK\r\nContent-Type: application/json\r\n\r\n{"a":1}'],
    [
      'HTTP/1.1 with a close-delimited body',
      'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n{"a":1}',
    ],
    [
      'a FIN right after a complete answer',
      'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 7\r\n\r\n{"a":1}',
    ],
  ])('takes %s as a complete answer', async (_name, answer) => {
    const server = await rawServer((socket) => socket.end(answer));
    try {
      for (const path of ['/a', '/b']) {
        const exchange = await get(`${server.url}${path}`);
        expect(exchange.failure).toBeUndefined();
        expect(exchange.body).toBe('{"a":1}');
      }
    } finally {
      await server.close();
    }
  });
});

describe('what a body is made of', () => {
  it('tells invalid UTF-8 and a byte order mark from plain UTF-8', async () => {
    const origin = await serve('127.0.0.1', (req, res) => {
      if (req.url === '/latin1') res.end(Buffer.from([0x7b, 0x22, 0xc9, 0x22, 0x3a, 0x31, 0x7d]));
      else if (req.url === '/bom') res.end('\uFEFF{}');
      else res.end('{"é":1}');
    });
    expect((await get(`${origin}/latin1`)).encoding).toBe('invalid-utf8');
    expect((await get(`${origin}/bom`)).encoding).toBe('bom');
    const plain = await get(`${origin}/utf8`);
    expect(plain.encoding).toBeUndefined();
    expect(plain.body).toBe('{"é":1}');
  });

  it.each([
    ['gzip', gzipSync],
    ['deflate', deflateSync],
    ['br', brotliCompressSync],
  ])('reads a %s body as a browser does: decoded, with its decoded size', async (coding, compress) => {
    const record = JSON.stringify({ id: 'é'.repeat(300) });
    const origin = await serve('127.0.0.1', (_req, res) =>
      res.writeHead(200, { 'content-encoding': coding }).end(compress(Buffer.from(record))),
    );
    const exchange = await get(`${origin}/x`);
    expect(exchange.failure).toBeUndefined();
    expect(exchange.encoding).toBeUndefined();
    expect(exchange.body).toBe(record);
    expect(exchange.bodyBytes).toBe(Buffer.byteLength(record));
  });

  it('reports a body its Content-Encoding does not describe, and one not asked for, as undecodable', async () => {
    const origin = await serve('127.0.0.1', (req, res) => {
      if (req.url === '/empty') res.writeHead(204, { 'content-encoding': 'gzip' }).end();
      else res.writeHead(200, { 'content-encoding': req.url === '/lie' ? 'gzip' : 'zstd' }).end('{"id":"x"}');
    });
    const lie = await get(`${origin}/lie`);
    expect(lie.failure).toEqual({
      kind: 'undecodable',
      message: 'the body does not decode as its Content-Encoding says (gzip)',
    });
    expect(lie.body).toBe('');
    expect((await get(`${origin}/zstd`)).failure?.kind).toBe('undecodable');
    const empty = await get(`${origin}/empty`);
    expect(empty.failure).toBeUndefined();
    expect(empty.status).toBe(204);
  });

  it('holds a compression bomb to the cap: a failure, never inflated', async () => {
    const origin = await serve('127.0.0.1', (_req, res) =>
      res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync(Buffer.alloc(64 * 1024, 0x20))),
    );
    const exchange = await get(`${origin}/bomb`);
    expect(exchange.failure).toEqual({
      kind: 'too-large',
      message: 'the body exceeds the 1024 bytes cap once decoded (Content-Encoding: gzip)',
    });
    expect(exchange.body).toBe('');
  });
});
