import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { closeAll, plain, proxyTo, rawExchange, rawRequest, type Plain } from './helpers.js';
import { removeTempDirs } from '../helpers/temp-dirs.js';

/** A hostile client's attempts to use the proxy as a way to somewhere else than its --target. */

afterEach(closeAll);
afterAll(removeTempDirs);

/** A target that answers every request with what it received: the request target and the headers. */
function echoingTarget(): Promise<Plain> {
  return plain((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ url: req.url, headers: req.headers }));
  });
}

function statusOf(raw: string): string {
  return raw.split('\r\n', 1)[0] ?? '';
}

describe('evalkit proxy forwards to its --target only', () => {
  it('never reaches another origin, whatever the request line or the routing headers name', async () => {
    const other = await plain((_req, res) => res.end('the other origin'));
    const otherHost = new URL(other.url).host;
    const target = await echoingTarget();
    const watched = await proxyTo(target.url);
    const refused = [
      `GET ${other.url}/human-evaluations/x HTTP/1.1`,
      `GET http://${otherHost}@127.0.0.1/x HTTP/1.1`,
      `OPTIONS * HTTP/1.1`,
      `GET @${otherHost}/x HTTP/1.1`,
      `GET ${otherHost}/x HTTP/1.1`,
      `GET \\\\${otherHost}\\x HTTP/1.1`,
    ];
    for (const head of refused) expect(statusOf(await rawRequest(watched.proxy.url, head)), head).toMatch(/ 400 /);
    expect(statusOf(await rawRequest(watched.proxy.url, `CONNECT ${otherHost} HTTP/1.1`))).toMatch(/ 405 /);

    // Routing claims in headers: the target gets its own Host and none of the claims.
    const claims = await rawExchange(
      watched.proxy.url,
      [
        'GET /human-evaluations/x HTTP/1.1',
        `Host: ${otherHost}`,
        `X-Forwarded-Host: ${otherHost}`,
        `Forwarded: host=${otherHost};proto=http`,
        'X-Original-URL: /admin',
        'X-Rewrite-URL: /admin',
        'Connection: close',
        '',
        '',
      ].join('\r\n'),
    );
    expect(statusOf(claims)).toMatch(/ 200 /);
    const seen = target.requests.at(-1);
    expect(seen?.url).toBe('/human-evaluations/x');
    expect(seen?.headers.host).toBe(new URL(target.url).host);
    for (const name of ['x-forwarded-host', 'forwarded', 'x-original-url', 'x-rewrite-url'])
      expect(seen?.headers, name).not.toHaveProperty(name);

    // A path that starts like an authority stays a path on the target.
    const slashes = await rawRequest(watched.proxy.url, `GET //${otherHost}/x HTTP/1.1`);
    expect(slashes).toContain(`"url":"//${otherHost}/x"`);
    expect(other.hits()).toBe(0);
  });

  it('refuses paths that may leave the base path: dot segments and backslashes, in clear or encoded', async () => {
    const target = await echoingTarget();
    const watched = await proxyTo(`${target.url}/api`);
    for (const path of [
      '/../admin',
      '/human-evaluations/..',
      '/%2e%2e/admin',
      '/%2E./admin',
      '/%252e%252e/admin',
      '/x/%2e%2e%2fadmin',
      '/.',
      '/\\admin',
      '/%5cadmin',
      '/x%255c..%255cadmin',
    ]) {
      const reply = await rawRequest(watched.proxy.url, `GET ${path} HTTP/1.1`);
      expect(statusOf(reply), path).toMatch(/ 400 /);
      expect(reply, path).toMatch(/dot segment|backslash/);
    }
    const fine = await rawRequest(watched.proxy.url, 'GET /.well-known/x..y/a.b HTTP/1.1');
    expect(fine).toContain('"url":"/api/.well-known/x..y/a.b"');
    expect(target.hits()).toBe(1);
  });

  it('drops hop-by-hop headers, Proxy-* ones and those Connection names, both ways', async () => {
    const target = await plain((_req, res) => {
      res.writeHead(200, [
        ['Content-Type', 'application/json'],
        ['Connection', 'X-Answer-Hop'],
        ['X-Answer-Hop', 'answer-only'],
        ['Keep-Alive', 'timeout=5'],
        ['Proxy-Authenticate', 'Basic realm="x"'],
        ['Proxy-Anything', 'answer-only'],
        ['Upgrade', 'h2c'],
        ['Trailer', 'X-Checksum'],
        ['X-End-To-End', 'kept'],
      ]);
      res.end('{}');
    });
    const watched = await proxyTo(target.url);
    const reply = await rawExchange(
      watched.proxy.url,
      [
        'GET /human-evaluations/x HTTP/1.1',
        `Host: ${new URL(watched.proxy.url).host}`,
        'Connection: close, X-Request-Hop',
        'X-Request-Hop: request-only',
        'Keep-Alive: timeout=5',
        'Proxy-Authorization: Basic cHJveHk6cGFzcw==',
        'Proxy-Anything: request-only',
        'TE: trailers',
        'Upgrade: h2c',
        'Trailer: X-Checksum',
        'X-End-To-End: kept',
        '',
        '',
      ].join('\r\n'),
    );
    const got = target.requests[0]?.headers ?? {};
    for (const name of [
      'x-request-hop',
      'keep-alive',
      'proxy-authorization',
      'proxy-anything',
      'te',
      'upgrade',
      'trailer',
    ])
      expect(got, name).not.toHaveProperty(name);
    expect(got['x-end-to-end']).toBe('kept');
    const head = reply.slice(0, reply.indexOf('\r\n\r\n')).toLowerCase();
    for (const name of ['x-answer-hop', 'keep-alive', 'proxy-authenticate', 'proxy-anything', 'upgrade', 'trailer'])
      expect(head, name).not.toContain(`\r\n${name}:`);
    expect(head).toContain('\r\nx-end-to-end: kept');
  });

  it.each([
    ['Content-Length with Transfer-Encoding', 'Content-Length: 5\r\nTransfer-Encoding: chunked', '0\r\n\r\n'],
    ['two different Content-Lengths', 'Content-Length: 5\r\nContent-Length: 6', 'hello!'],
    ['a coding stacked under chunked', 'Transfer-Encoding: gzip, chunked', '5\r\nhello\r\n0\r\n\r\n'],
    ['the same in two headers', 'Transfer-Encoding: gzip\r\nTransfer-Encoding: chunked', '5\r\nhello\r\n0\r\n\r\n'],
    ['a Transfer-Encoding that is not chunked', 'Transfer-Encoding: identity', 'hello'],
    ['two Host headers', 'Host: elsewhere.example\r\nContent-Length: 5', 'hello'],
  ])('ambiguous framing, %s: a 400 naming it, nothing forwarded', async (_name, headers, body) => {
    const target = await echoingTarget();
    const watched = await proxyTo(target.url);
    const { host } = new URL(watched.proxy.url);
    const reply = await rawExchange(
      watched.proxy.url,
      `POST /evaluations HTTP/1.1\r\nHost: ${host}\r\n${headers}\r\n\r\n${body}`,
    );
    expect(statusOf(reply)).toMatch(/ 400 /);
    expect(reply).toMatch(/"detail":"[^"]*(Transfer-Encoding|Content-Length|Host|not valid HTTP)/);
    expect(target.hits()).toBe(0);
  });

  it('Transfer-Encoding in an HTTP/1.0 request: a 400, nothing forwarded', async () => {
    const target = await echoingTarget();
    const watched = await proxyTo(target.url);
    const reply = await rawExchange(
      watched.proxy.url,
      'POST /evaluations HTTP/1.0\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n',
    );
    expect(statusOf(reply)).toMatch(/ 400 /);
    expect(reply).toContain('HTTP/1.0');
    expect(target.hits()).toBe(0);
  });
});
