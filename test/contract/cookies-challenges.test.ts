import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { runContract, terminalReport } from '../../contract/index.js';
import { bankCreateBody } from './bank.js';

/** A server on 127.0.0.1 answering every request with `answer`, keeping the Cookie header of each. */
async function hostile(answer: (req: IncomingMessage, res: ServerResponse) => void) {
  const cookies: Array<string | undefined> = [];
  const server = createServer((req, res) => {
    cookies.push(req.headers.cookie);
    req.resume();
    req.on('end', () => answer(req, res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    cookies,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

describe("a deployment's cookies and challenges", () => {
  it.each([
    ['no --header Cookie', {}, undefined],
    ['a --header Cookie of its own', { Cookie: 'mine=1' }, 'mine=1'],
  ])('never replays a cookie the server set (%s)', async (_name, headers, sent) => {
    const server = await hostile((req, res) => {
      // A session cookie on every answer, in every form a cookie jar would keep.
      res.setHeader('set-cookie', [
        'session=server-set; Path=/',
        'tracker=server-set-2; Path=/; Max-Age=3600; SameSite=None',
        'host=server-set-3; Domain=127.0.0.1; Path=/',
      ]);
      res.writeHead(req.method === 'POST' ? 422 : 404, { 'content-type': 'application/json' }).end('{"detail":"no"}');
    });
    try {
      await runContract({
        baseUrl: server.url,
        deployment: { createEvaluations: bankCreateBody },
        headers,
        timeoutMs: 2_000,
      });
      expect(server.cookies.length).toBeGreaterThan(5);
      expect(new Set(server.cookies)).toEqual(new Set([sent]));
    } finally {
      await server.close();
    }
  });

  it('reports a 401 Basic challenge and never waits for input', async () => {
    const server = await hostile((_req, res) => {
      res
        .writeHead(401, {
          'www-authenticate': 'Basic realm="evalkit test", charset="UTF-8"',
          'content-type': 'text/plain',
        })
        .end('Unauthorized');
    });
    const stdin = process.stdin;
    const listening = () =>
      stdin.listenerCount('data') + stdin.listenerCount('readable') + stdin.listenerCount('keypress');
    const before = { listening: listening(), flowing: stdin.readableFlowing };
    try {
      const report = await runContract({
        baseUrl: server.url,
        deployment: { createEvaluations: bankCreateBody },
        timeoutMs: 2_000,
      });
      expect(report.verdict).toBe('NOTHING VERIFIED');
      expect(report.headline).toMatch(/401/);
      expect(terminalReport(report, { colour: false })).toMatch(/answered 401/);
      // Nothing read the terminal: no listener on stdin, and it was never set flowing.
      expect({ listening: listening(), flowing: stdin.readableFlowing }).toEqual(before);
      // Every request was sent once and challenged once: no retry with credentials of its own making.
      expect(server.cookies.length).toBe(report.requests);
    } finally {
      await server.close();
    }
  });
});
