import { describe, expect, it } from 'vitest';
import { mockServers } from './control-helpers.js';
import { openRaw, parseResponses, type RawResponse } from './raw-http.js';

const start = mockServers();

/**
 * One request as a DNS-rebound page sends it: to the mock's address, with the Host the page's own name gives. Raw,
 * so the Host is exactly this; the answer's head only for the event stream, which never ends.
 */
async function send(
  origin: string,
  host: string,
  method: string,
  path: string,
  body?: string,
  headers: Record<string, string> = {},
): Promise<RawResponse> {
  const raw = await openRaw(origin);
  const lines = [`${method} ${path} HTTP/1.1`, `Host: ${host}`, 'Connection: close'];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  if (body !== undefined) lines.push('Content-Type: application/json', `Content-Length: ${Buffer.byteLength(body)}`);
  raw.socket.write(`${lines.join('\r\n')}\r\n\r\n${body ?? ''}`);
  if (path.endsWith('/events')) {
    await Promise.race([raw.waitFor('\r\n\r\n'), raw.closed]);
    raw.socket.destroy();
  } else {
    await raw.closed;
  }
  const [response] = parseResponses(raw.received());
  if (!response) throw new Error(`no answer: ${raw.received().slice(0, 200)}`);
  return response;
}

const put500 = JSON.stringify({ operations: { fetchHumanEvaluation: { code: 500 } } });

/** Every control-room request a rebound page makes: read the journal, the events, the dashboard; write. */
const controlRequests: Array<[string, string, string?]> = [
  ['GET', '/__evalkit/requests'],
  ['GET', '/__evalkit/events'],
  ['GET', '/__evalkit/'],
  ['GET', '/__evalkit/scenario'],
  ['PUT', '/__evalkit/scenario', put500],
  ['DELETE', '/__evalkit/scenario'],
  ['DELETE', '/__evalkit/requests'],
];

describe('DNS rebinding: the control room answers loopback Hosts and --allowed-hosts only', () => {
  it("refuses a rebound page's reads and writes, 403 naming the Host and the flag; the API still answers", async () => {
    const { origin } = await start();
    const port = new URL(origin).port;
    await fetch(`${origin}/human-evaluations/seen-before`);
    for (const host of [`attacker.example:${port}`, 'attacker.example', `sub.attacker.example:${port}`]) {
      for (const [method, path, body] of controlRequests) {
        const res = await send(origin, host, method, path, body);
        expect(res.status, `${method} ${path} Host ${host}`).toBe(403);
        expect(res.headers['content-type']).toBe('application/json');
        expect(res.headers['access-control-allow-origin']).toBeUndefined();
        const detail = (JSON.parse(res.body) as { detail: string }).detail;
        expect(detail).toContain(`Host ${JSON.stringify(host)}`);
        expect(detail).toContain(`--allowed-hosts ${host.split(':')[0]}`);
        expect(res.body).not.toContain('seen-before');
      }
    }
    // Odd Host values are refused too, never read as loopback (userinfo, a path, none).
    for (const host of [`127.0.0.1@attacker.example:${port}`, `attacker.example:${port}/127.0.0.1`, '']) {
      const res = await send(origin, host, 'GET', '/__evalkit/requests');
      expect(res.status, `Host ${JSON.stringify(host)}`).toBe(403);
    }
    // Nothing changed: the scenario is the start-up one and the journal still holds the request.
    const scenario = (await (await fetch(`${origin}/__evalkit/scenario`)).json()) as { operations?: object };
    expect(scenario.operations).toEqual({});
    const journal = (await (await fetch(`${origin}/__evalkit/requests`)).json()) as { requests: unknown[] };
    expect(JSON.stringify(journal)).toContain('seen-before');
    // The API is the mock of a public one: any Host reaches it, as a deployment behind any name would.
    expect((await send(origin, `attacker.example:${port}`, 'GET', '/human-evaluations/x')).status).toBe(200);
  });

  it('serves the loopback names, IPv6 included, and the hosts the user allowed', async () => {
    const { origin } = await start({ allowedHosts: ['my-box.test', '.lan.test', '192.168.1.5', 'fe80::1'] });
    const port = new URL(origin).port;
    const served = [
      `127.0.0.1:${port}`,
      `localhost:${port}`,
      `[::1]:${port}`,
      `[0:0:0:0:0:0:0:1]:${port}`,
      `127.8.9.10:${port}`,
      `app.localhost:${port}`,
      `LOCALHOST.:${port}`,
      'localhost',
      `my-box.test:${port}`,
      `lan.test:${port}`,
      `a.b.lan.test:${port}`,
      `192.168.1.5:${port}`,
      `[fe80::1]:${port}`,
    ];
    for (const host of served) {
      expect((await send(origin, host, 'GET', '/__evalkit/requests')).status, `Host ${host}`).toBe(200);
      const events = await send(origin, host, 'GET', '/__evalkit/events');
      expect(events.headers['content-type'], `events, Host ${host}`).toMatch(/^text\/event-stream/);
    }
    expect((await send(origin, `localhost:${port}`, 'PUT', '/__evalkit/scenario', put500)).status).toBe(200);
    expect((await send(origin, `[::1]:${port}`, 'DELETE', '/__evalkit/scenario')).status).toBe(200);
    // Near misses of the allowed names stay refused; so does a LAN address nobody listed.
    for (const host of ['my-box.test.attacker.example', 'evil-lan.test', 'notlocalhost', '192.168.1.6', '0.0.0.0'])
      expect((await send(origin, `${host}:${port}`, 'GET', '/__evalkit/requests')).status, host).toBe(403);
  });

  it('answers any Host with allowedHosts: true', async () => {
    const { origin } = await start({ allowedHosts: true });
    expect((await send(origin, 'attacker.example', 'GET', '/__evalkit/requests')).status).toBe(200);
  });
});
