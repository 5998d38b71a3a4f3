import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { mockServers } from './control-helpers.js';
import { openRaw, parseResponses } from './raw-http.js';

const start = mockServers();

const put500 = JSON.stringify({ operations: { fetchHumanEvaluation: { code: 500 } } });

/**
 * The requests a page of another site can make a browser send, with the headers the browser adds (a page cannot set
 * Origin or Sec-Fetch-*). node:http sends exactly these (fetch adds its own Sec-Fetch-Mode).
 */
function call(
  origin: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; headers: Record<string, unknown>; detail: unknown }> {
  return new Promise((resolve, reject) => {
    const req = request(`${origin}${path}`, { method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          detail: text ? (JSON.parse(text) as { detail?: unknown }).detail : null,
        }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function scenarioInForce(origin: string): Promise<unknown> {
  return (await (await fetch(`${origin}/__evalkit/scenario`)).json()) as unknown;
}

describe('the control room refuses what another site’s page can send', () => {
  it('refuses state changes a page can send without a preflight, or from another origin or site', async () => {
    const { origin } = await start();
    const before = await scenarioInForce(origin);
    const other = 'http://localhost:5173';
    const refused: Array<[string, string, Record<string, string>, string | undefined, number, RegExp]> = [
      // Forms and simple fetches: no preflight, so the body's type is the browser's only gate.
      [
        'PUT',
        '/__evalkit/scenario',
        { 'Content-Type': 'text/plain' },
        put500,
        415,
        /Content-Type must be application\/json/,
      ],
      [
        'PUT',
        '/__evalkit/scenario',
        { 'Content-Type': 'application/x-www-form-urlencoded' },
        'a=b',
        415,
        /application\/json/,
      ],
      [
        'PUT',
        '/__evalkit/scenario',
        { 'Content-Type': 'multipart/form-data; boundary=x' },
        '--x--',
        415,
        /application\/json/,
      ],
      ['POST', '/__evalkit/scenario', { 'Content-Type': 'text/plain' }, put500, 415, /application\/json/],
      ['DELETE', '/__evalkit/requests', { 'Content-Type': 'text/plain' }, undefined, 415, /application\/json/],
      // Method overrides, in a header or the query.
      [
        'POST',
        '/__evalkit/scenario',
        { 'X-HTTP-Method-Override': 'PUT', 'Content-Type': 'application/json' },
        put500,
        400,
        /method override/,
      ],
      ['POST', '/__evalkit/requests?_method=DELETE', {}, undefined, 400, /method override/],
      ['GET', '/__evalkit/requests?_method=DELETE', {}, undefined, 400, /method override/],
      // Another origin, another site: Origin and Sec-Fetch-Site, each alone.
      [
        'PUT',
        '/__evalkit/scenario',
        { 'Content-Type': 'application/json', Origin: other },
        put500,
        403,
        /Origin "http:\/\/localhost:5173"/,
      ],
      [
        'PUT',
        '/__evalkit/scenario',
        { 'Content-Type': 'application/json', Origin: 'null' },
        put500,
        403,
        /another origin/,
      ],
      ['DELETE', '/__evalkit/scenario', { Origin: other }, undefined, 403, /another origin/],
      [
        'PUT',
        '/__evalkit/scenario',
        { 'Content-Type': 'application/json', 'Sec-Fetch-Site': 'cross-site' },
        put500,
        403,
        /Sec-Fetch-Site: cross-site/,
      ],
      [
        'PUT',
        '/__evalkit/scenario',
        { 'Content-Type': 'application/json', 'Sec-Fetch-Site': 'same-site' },
        put500,
        403,
        /Sec-Fetch-Site: same-site/,
      ],
      ['DELETE', '/__evalkit/requests', { 'Sec-Fetch-Site': 'cross-site' }, undefined, 403, /another site/],
      // Reads from another site's page: the journal, the events, the dashboard in a frame.
      [
        'GET',
        '/__evalkit/requests',
        { 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'no-cors' },
        undefined,
        403,
        /another site/,
      ],
      [
        'GET',
        '/__evalkit/events',
        { 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'cors' },
        undefined,
        403,
        /another site/,
      ],
      [
        'GET',
        '/__evalkit/',
        { 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'navigate', 'Sec-Fetch-Dest': 'iframe' },
        undefined,
        403,
        /another site/,
      ],
      // A preflight is never granted, whatever --cors-origin says for the API.
      [
        'OPTIONS',
        '/__evalkit/scenario',
        { Origin: other, 'Access-Control-Request-Method': 'PUT' },
        undefined,
        403,
        /no cross-origin access/,
      ],
    ];
    for (const [method, path, headers, body, status, detail] of refused) {
      const res = await call(origin, method, path, headers, body);
      const label = `${method} ${path} ${JSON.stringify(headers)}`;
      expect(res.status, label).toBe(status);
      expect(String(res.detail), label).toMatch(detail);
      expect(res.headers['access-control-allow-origin'], label).toBeUndefined();
    }
    expect(await scenarioInForce(origin)).toEqual(before);

    // The mock's own page (same origin), a link followed from elsewhere, and clients that are no browser are served.
    const self = { 'Content-Type': 'application/json', Origin: origin, 'Sec-Fetch-Site': 'same-origin' };
    expect((await call(origin, 'PUT', '/__evalkit/scenario', self, put500)).status).toBe(200);
    expect((await call(origin, 'DELETE', '/__evalkit/scenario', { Origin: origin })).status).toBe(200);
    expect((await call(origin, 'DELETE', '/__evalkit/requests', { 'Sec-Fetch-Site': 'none' })).status).toBe(204);
    const link = { 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'navigate', 'Sec-Fetch-Dest': 'document' };
    expect((await call(origin, 'GET', '/__evalkit/requests', link)).status).toBe(200);
    expect(
      (await call(origin, 'PUT', '/__evalkit/scenario', { 'Content-Type': 'application/json; charset=utf-8' }, put500))
        .status,
    ).toBe(200);
  });

  it('grants no CORS on any control-room answer, whatever --cors-origin allows the API', async () => {
    const page = 'http://localhost:5173';
    for (const cors of ['*', [page]] as const) {
      const { url, origin } = await start({ cors });
      const api = await fetch(`${url}/human-evaluations/x`, { headers: { Origin: page } });
      expect(api.headers.get('access-control-allow-origin')).not.toBeNull();
      for (const path of [
        '/__evalkit/',
        '/__evalkit/requests',
        '/__evalkit/scenario',
        '/__evalkit/nope',
        '/__evalkit/openapi.json',
      ]) {
        for (const method of ['GET', 'OPTIONS']) {
          const res = await fetch(`${origin}${path}`, {
            method,
            headers: { Origin: page, 'Access-Control-Request-Method': 'GET' },
          });
          expect(res.headers.get('access-control-allow-origin'), `${method} ${path}`).toBeNull();
          expect(res.headers.get('access-control-allow-credentials'), `${method} ${path}`).toBeNull();
          await res.arrayBuffer();
        }
      }
    }
  });

  it('grants no CORS on a refusal the server makes before the app, as it does for the API', async () => {
    const { origin } = await start();
    const refusalOf = async (path: string) => {
      const raw = await openRaw(origin);
      // Over the 1 MiB body limit: the node:http guard answers 413 before reading a byte or routing the request.
      raw.socket.write(
        `PUT ${path} HTTP/1.1\r\nHost: ${new URL(origin).host}\r\nOrigin: http://localhost:5173\r\n` +
          'Content-Type: application/json\r\nContent-Length: 2000000\r\n\r\n',
      );
      await raw.waitFor('\r\n\r\n');
      raw.socket.destroy();
      return parseResponses(raw.received())[0];
    };
    const api = await refusalOf('/evaluations');
    expect(api?.status).toBe(413);
    expect(api?.headers['access-control-allow-origin']).toBe('*');
    const room = await refusalOf('/__evalkit/scenario');
    expect(room?.status).toBe(413);
    expect(room?.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('keeps every answer out of frames and other origins’ embeds, the dashboard’s own CSP kept', async () => {
    const { origin } = await start();
    const events = new AbortController();
    const answers = [
      await fetch(`${origin}/__evalkit/`),
      await fetch(`${origin}/__evalkit/requests`),
      await fetch(`${origin}/__evalkit/events`, { signal: events.signal }),
      await fetch(`${origin}/__evalkit/requests`, { headers: { 'Sec-Fetch-Site': 'cross-site' } }),
    ];
    events.abort();
    for (const res of answers) {
      expect(res.headers.get('x-frame-options'), res.url).toBe('DENY');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(res.headers.get('cross-origin-resource-policy')).toBe('same-origin');
      expect(res.headers.get('cache-control')).toBe('no-store');
    }
    const policy = answers[0]?.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+'(;|$)/);
    expect(policy).toContain("default-src 'none'");
  });
});
