import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer, type MockServerOptions } from '../../mock/index.js';
import type { MockSeams } from '../../mock/node/app.js';
import { startMockServerWith } from '../../mock/node/server.js';
import { runCli } from '../helpers/cli.js';
import { journal } from './control-helpers.js';
import { createRequest } from './helpers.js';

/** What the origin received of one request. */
interface Received {
  method: string;
  url: string;
  rawHeaders: string[];
  body: Buffer;
}

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  rawHeaders: string[];
  body: Buffer;
}

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** A small real origin: records each request, answers 201 with its own headers and bytes (not UTF-8 on purpose). */
async function origin(answer = true): Promise<{ url: string; received: Received[] }> {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({
        method: req.method ?? '',
        url: req.url ?? '',
        rawHeaders: req.rawHeaders,
        body: Buffer.concat(chunks),
      });
      if (!answer) return;
      res.writeHead(201, 'Made', [
        'X-Origin',
        'yes',
        'Set-Cookie',
        'session=origin-cookie-value',
        'Set-Cookie',
        'other=2',
        'Content-Type',
        'application/octet-stream',
      ]);
      res.end(Buffer.from([0xff, 0x00, 0xfe, 0x41]));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received };
}

async function mock(options: MockServerOptions, seams: MockSeams = {}): Promise<{ url: string; origin: string }> {
  const server: MockServer = await startMockServerWith({ port: 0, basePath: '/api', ...options }, seams);
  closers.push(() => server.close());
  return { url: server.url, origin: new URL(server.url).origin };
}

/** A request with exactly these raw headers and body bytes (node:http, so nothing is added but what HTTP needs). */
function send(url: string, method: string, headers: string[], body?: Buffer): Promise<Answer> {
  return new Promise((resolve, reject) => {
    // With a raw list node:http adds no Host of its own.
    const withHost = headers.some((name) => name.toLowerCase() === 'host')
      ? headers
      : ['Host', new URL(url).host, ...headers];
    const req = httpRequest(url, { method, headers: withHost }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          rawHeaders: res.rawHeaders,
          body: Buffer.concat(chunks),
        }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

const secretToken = 'Bearer passthrough-secret-7f3a';

describe('evalkit mock --passthrough: what the mock does not serve reaches a real origin unchanged', () => {
  it("a session's other paths reach the origin without the session prefix; a bad name is the mock's 400", async () => {
    const upstream = await origin();
    const { origin: at } = await mock({ passthrough: upstream.url });
    const passed = await send(`${at}/__sessions/w1/api/apps?x=1`, 'GET', []);
    expect(passed.status).toBe(201);
    expect(upstream.received.map((request) => request.url)).toEqual(['/api/apps?x=1']);
    const answered = await send(`${at}/__sessions/w1/api/human-evaluations/a`, 'GET', []);
    expect(answered.status).toBe(200);
    // The control room's paths stay the mock's, never forwarded, behind a session's prefix too.
    expect((await send(`${at}/__sessions/w1/__evalkit/requests`, 'GET', [])).status).toBe(404);
    const refused = await send(`${at}/__sessions/a%20b/api/apps`, 'GET', []);
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.body.toString()).detail).toMatch(/path prefix .* a session name is/);
    expect(upstream.received).toHaveLength(1);
  });

  it('forwards method, path, query, headers and body byte for byte; returns the answer as given', async () => {
    const upstream = await origin();
    const lines: string[] = [];
    const { origin: at } = await mock({ passthrough: upstream.url, log: (line) => lines.push(line) });
    const body = Buffer.from([0x00, 0xc3, 0x28, 0x7b, 0xff]);
    const headers = [
      'X-Custom',
      'One',
      'x-custom',
      'two',
      'Authorization',
      secretToken,
      'Content-Type',
      'application/x-anything',
      'Content-Length',
      String(body.length),
      'Connection',
      'keep-alive, X-Hop',
      'X-Hop',
      'dropped',
    ];
    const answer = await send(`${at}/api/apps/6637c0a2?name=a%20b&x=1&x=2`, 'PATCH', headers, body);

    expect(upstream.received).toHaveLength(1);
    const [seen] = upstream.received as [Received];
    expect(seen.method).toBe('PATCH');
    expect(seen.url).toBe('/api/apps/6637c0a2?name=a%20b&x=1&x=2');
    expect(seen.body.equals(body)).toBe(true);
    // End-to-end headers as sent, in order and case; the mock's Via (RFC 9110 §7.6.3), Host the origin's; the
    // connection's own headers dropped (node's client adds its own Connection).
    const byName = headerPairs(seen.rawHeaders);
    expect(byName.filter(([name]) => name === 'Host')).toEqual([['Host', new URL(upstream.url).host]]);
    expect(byName.filter(([name]) => name !== 'Host' && name !== 'Connection')).toEqual([
      ['X-Custom', 'One'],
      ['x-custom', 'two'],
      ['Authorization', secretToken],
      ['Content-Type', 'application/x-anything'],
      ['Content-Length', String(body.length)],
      ['Via', expect.stringMatching(/^1\.1 evalkit-mock-[0-9a-f]{12}$/)],
    ]);

    expect(answer.status).toBe(201);
    expect(answer.body.equals(Buffer.from([0xff, 0x00, 0xfe, 0x41]))).toBe(true);
    expect(answer.headers['x-origin']).toBe('yes');
    expect(answer.headers['set-cookie']).toEqual(['session=origin-cookie-value', 'other=2']);
    expect(answer.headers['content-type']).toBe('application/octet-stream');
    // No CORS or other header of the mock's own is added to another API's answer.
    expect(answer.headers['access-control-allow-origin']).toBeUndefined();

    const [entry] = await journal(at);
    expect(entry).toMatchObject({ method: 'PATCH', path: '/api/apps/6637c0a2', status: 201, served: 'passthrough' });
    expect(entry?.request.headers.authorization).toBe('<AUTHORIZATION>');
    expect(entry?.response.headers['set-cookie']).toBe('<SET-COOKIE>');
    expect(entry?.request.body_bytes).toBe(body.length);
    const everything = JSON.stringify(await journal(at)) + lines.join('\n');
    expect(everything).not.toContain('passthrough-secret');
    expect(everything).not.toContain('origin-cookie-value');
    expect(lines.find((line) => line.startsWith('PATCH'))).toMatch(
      new RegExp(`^PATCH /api/apps/6637c0a2 201 \\d+\\.\\dms \\(passthrough ${upstream.url}\\)$`),
    );
  });

  it('never forwards the two operations (any method) nor the control room; they stay the mock', async () => {
    const upstream = await origin();
    const { url, origin: at } = await mock({ passthrough: upstream.url });
    const json = JSON.stringify(createRequest());
    const created = await send(`${url}/evaluations`, 'POST', ['Content-Type', 'application/json'], Buffer.from(json));
    expect(created.status).toBe(200);
    expect((await send(`${url}/human-evaluations/abc`, 'GET', [])).status).toBe(200);
    expect((await send(`${url}/evaluations/`, 'DELETE', [])).status).toBe(405);
    expect((await send(`${at}/__evalkit/requests`, 'GET', [])).status).toBe(200);
    expect((await send(`${at}/__evalkit/nothing-here`, 'GET', [])).status).toBe(404);
    expect(upstream.received).toEqual([]);
    expect((await journal(at)).map((entry) => entry.served)).toEqual(['mock', 'mock', 'mock']);
  });

  it('an origin that cannot be reached gets a 502 naming it, one that stays silent a 504: never a hang', async () => {
    const closed = await origin();
    const gone = closed.url;
    await closers.pop()?.();
    const { origin: at } = await mock({ passthrough: gone });
    const unreachable = await send(`${at}/api/apps`, 'GET', []);
    expect(unreachable.status).toBe(502);
    expect(JSON.parse(unreachable.body.toString())).toMatchObject({ origin: gone, cause: 'ECONNREFUSED' });
    // The journal keeps the mock's own answer, which says why, and notes that the origin never answered.
    const [entry] = await journal(at);
    expect(entry).toMatchObject({ status: 502, served: 'passthrough' });
    expect(entry?.response.body).toEqual(JSON.parse(unreachable.body.toString()));
    expect(entry?.response.headers['Content-Type']).toBe('application/json');
    expect(entry?.notes).toEqual([expect.stringContaining('the passthrough origin did not answer')]);

    const silent = await origin(false);
    const { origin: slow } = await mock({ passthrough: silent.url }, { passthroughTimeoutMs: 200 });
    const timedOut = await send(`${slow}/api/apps`, 'GET', []);
    expect(timedOut.status).toBe(504);
    expect(JSON.parse(timedOut.body.toString())).toMatchObject({ origin: silent.url, cause: 'timeout' });
  });

  it('forwards for this machine and --allowed-hosts only: a page reaching it by another name gets a 403', async () => {
    const upstream = await origin();
    const lines: string[] = [];
    const { origin: at } = await mock({ passthrough: upstream.url, log: (line) => lines.push(line) });
    const refused = await send(`${at}/api/apps`, 'GET', ['Host', 'attacker.example']);
    expect(refused.status).toBe(403);
    expect(upstream.received).toEqual([]);
    // The log says why, as it does for every refusal of the mock's.
    expect(lines).toEqual([expect.stringMatching(/^GET \/api\/apps 403 [\d.]+ms \(The passthrough forwards only /)]);
    const { origin: allowed } = await mock({ passthrough: upstream.url, allowedHosts: ['my-box.local'] });
    expect((await send(`${allowed}/api/apps`, 'GET', ['Host', 'my-box.local'])).status).toBe(201);
  });

  it('a chunked body over 1 MiB is cut off with a 413, as the mock limits its own', async () => {
    const upstream = await origin();
    const { origin: at } = await mock({ passthrough: upstream.url });
    const big = await send(`${at}/api/files`, 'POST', ['Transfer-Encoding', 'chunked'], Buffer.alloc(1024 * 1024 + 10));
    expect(big.status).toBe(413);
  });

  it('without the flag, an unserved path is the 404 naming the two operations', async () => {
    const { origin: at } = await mock({});
    const answer = await send(`${at}/api/apps`, 'GET', []);
    expect(answer.status).toBe(404);
    expect(answer.body.toString()).toMatch(/POST \/api\/evaluations/);
  });

  it('refuses a passthrough that is not an http(s) origin at start-up: one line, exit 2', async () => {
    for (const [value, problem] of [
      ['ftp://example.test', /not an http\(s\) URL/],
      ['http://localhost:8000/api', /origin only/],
      ['http://user:pw@localhost:8000', /no user or password/],
      ['localhost:8000', /not an http\(s\) URL/],
    ] as const) {
      const run = await runCli(['mock', '--port', '0', '--passthrough', value]);
      expect(run.code, value).toBe(2);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).toMatch(problem);
      expect(run.stderr).not.toContain('pw@');
    }
  });
});

describe('evalkit mock --passthrough never forwards into itself', () => {
  /** A port nothing listens on now: the one a mock is then told to listen on and to forward to. */
  async function freePort(): Promise<number> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    return port;
  }

  it('an origin that is its own address: refused at start-up, one line naming --passthrough, exit 2', async () => {
    const port = await freePort();
    for (const self of [`http://127.0.0.1:${port}`, `http://localhost:${port}`, `http://0.0.0.0:${port}`]) {
      await expect(startMockServer({ port, passthrough: self }), self).rejects.toThrow(
        `--passthrough ${new URL(self).origin} is this mock's own address`,
      );
      const run = await runCli(['mock', '--port', String(port), '--passthrough', self]);
      expect(run.code, self).toBe(2);
      expect(run.stderr).toMatch(/^evalkit mock: --passthrough .* is this mock's own address: .*\n$/);
    }
    // Another port of this machine is another server: allowed.
    const other = await mock({ passthrough: `http://127.0.0.1:${await freePort()}` });
    expect(other.url).toMatch(/^http:/);
  });

  it('a loop through another server: 508 Loop Detected by its Via, after one round, naming the loop', async () => {
    let hops = 0;
    let mockOrigin = '';
    // A second server that forwards whatever it gets back to the mock, Via and all, as a misconfigured gateway does;
    // it gives up after five rounds, so a mock that forwards forever fails this test instead of exhausting the machine.
    const bounce: Server = createServer((req, res) => {
      if (++hops > 5) return void res.writeHead(599).end();
      const back = httpRequest(
        `${mockOrigin}${req.url ?? '/'}`,
        { method: req.method, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      back.on('error', () => res.writeHead(502).end());
      req.pipe(back);
    });
    await new Promise<void>((resolve) => bounce.listen(0, '127.0.0.1', resolve));
    closers.push(
      () =>
        new Promise<void>((resolve) => {
          bounce.closeAllConnections();
          bounce.close(() => resolve());
        }),
    );
    const { origin: at } = await mock({ passthrough: `http://127.0.0.1:${(bounce.address() as AddressInfo).port}` });
    mockOrigin = at;
    const answer = await send(`${at}/api/apps`, 'GET', []);
    expect(answer.status).toBe(508);
    expect(hops).toBe(1);
    const body = JSON.parse(answer.body.toString()) as { detail: string };
    expect(body.detail).toMatch(/came back to this mock through its passthrough .*Via.*a loop/);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    // Another mock in the chain (a mock in front of a mock, on purpose) is not a loop: each has its own name.
    const backend = await origin();
    const inner = await mock({ passthrough: backend.url });
    const { origin: outer } = await mock({ passthrough: inner.origin });
    expect((await send(`${outer}/api/apps`, 'GET', [])).status).toBe(201);
    expect(headerPairs(backend.received[0]?.rawHeaders ?? []).filter(([name]) => name === 'Via')).toHaveLength(2);
  });
});

describe('the Via a passthrough adds and recognises', () => {
  it("property: any Via a client sends goes on with the mock's added; one naming this mock is a 508", async () => {
    const backend = await origin();
    const { origin: at } = await mock({ passthrough: backend.url });
    await send(`${at}/api/apps`, 'GET', []);
    const own = headerPairs(backend.received[0]?.rawHeaders ?? []).find(([name]) => name === 'Via')?.[1] ?? '';
    const pseudonym = own.split(' ')[1] ?? '';
    expect(pseudonym).toMatch(/^evalkit-mock-/);
    // Visible ASCII and spaces, as a header value may hold; hops as proxies write them, and junk.
    const hop = fc.oneof(
      fc.constantFrom('1.1 proxy', 'HTTP/2 gw (comment, with comma)', '1.0 fred', `1.1 ${pseudonym}x`, ''),
      fc.stringMatching(/^[!-~ ]{0,30}$/),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(hop, { maxLength: 4 }), fc.boolean(), async (hops, loop) => {
        const list = loop ? [...hops, `1.1 ${pseudonym}`] : hops;
        const value = list.join(', ').trim();
        const before = backend.received.length;
        const answer = await send(`${at}/api/apps`, 'GET', value === '' ? [] : ['Via', value]);
        const looped = list.some((entry) => entry.trim().split(/\s+/)[1] === pseudonym);
        expect(answer.status).toBe(looped ? 508 : 201);
        expect(backend.received.length - before).toBe(looped ? 0 : 1);
      }),
      { seed: 28, numRuns: 40 },
    );
  });
});

/** Raw headers as [name, value] pairs. */
function headerPairs(raw: string[]): Array<[string, string]> {
  return Array.from({ length: raw.length / 2 }, (_, index) => [raw[2 * index] as string, raw[2 * index + 1] as string]);
}
