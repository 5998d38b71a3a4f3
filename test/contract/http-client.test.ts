import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { send, type ClientOptions } from '../../contract/http-client.js';

const servers: Server[] = [];
afterAll(() => Promise.all(servers.map((server) => new Promise((resolve) => (server.closeAllConnections(), server.close(resolve))))));

async function serve(host: string, handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://${host}:${(server.address() as AddressInfo).port}`;
}

const options: ClientOptions = { timeoutMs: 500, maxBodyBytes: 1024 };
const get = (url: string, headers: Record<string, string> = {}) => send({ method: 'GET', url: new URL(url), headers }, options);

describe('the contract HTTP client', () => {
  it('does not follow a redirect to another origin, so the user\'s headers never reach it', async () => {
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
    const exchange = await send({ method: 'POST', url: new URL(`${origin}/a`), headers: { 'content-type': 'application/json' }, body: '{}' }, options);
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
    expect((await get(`${origin}/hang`)).failure).toEqual({ kind: 'timeout', message: 'no complete answer within 500 ms' });
  });

  it('tells a deployment that is not there from one that drops the connection', async () => {
    const dropping = await serve('127.0.0.1', (req) => req.socket.destroy());
    expect((await get(`${dropping}/`)).failure?.kind).toBe('dropped');
    const server = servers.at(-1) as Server;
    await new Promise((resolve) => server.close(resolve));
    expect((await get(`${dropping}/`)).failure?.kind).toBe('unreachable');
  });
});
