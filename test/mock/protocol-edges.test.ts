import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from '../../mock/index.js';
import { createRequest, expectEvaluations, noBodyAnswer } from './helpers.js';
import { exchangeRaw, openRaw, parseResponses, type RawResponse } from './raw-http.js';

let server: MockServer;

beforeAll(async () => {
  server = await startMockServer({ port: 0 });
});

afterAll(async () => {
  await server.close();
});

const exchange = (bytes: string) => exchangeRaw(server.url, bytes);

function expectJsonProblem(response: RawResponse | undefined, status: number, detail: RegExp): void {
  expect(response?.status).toBe(status);
  expect(response?.headers['content-type']).toBe('application/json');
  expect(JSON.parse(response?.body ?? '').detail).toMatch(detail);
}

const body = JSON.stringify(createRequest());
const postHead = (headers: string) => `POST /evaluations HTTP/1.1\r\nHost: mock\r\n${headers}\r\n`;

describe('protocol edges, on a raw socket', () => {
  it('answers CONNECT with a JSON 405 and Allow, then closes', async () => {
    const responses = await exchange('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
    expect(responses).toHaveLength(1);
    expectJsonProblem(responses[0], 405, /CONNECT is not supported/);
    expect(responses[0]?.headers.allow).toBe('GET, HEAD, POST, OPTIONS');
  });

  it('answers an HTTP/1.1 request without Host with a JSON 400, and serves HTTP/1.0 without one', async () => {
    const responses = await exchange('GET /human-evaluations/abc HTTP/1.1\r\n\r\n');
    expectJsonProblem(responses[0], 400, /must have a Host header/);
    const old = await exchange('GET /human-evaluations/abc HTTP/1.0\r\n\r\n');
    expect(old[0]?.status).toBe(200);
    expect(JSON.parse(old[0]?.body ?? '').id).toBe('abc');
  });

  it('answers a Content-Length over the limit with a JSON 413 without waiting for the body', async () => {
    // No byte of the 10 MiB is sent: the answer can only come from the headers.
    const responses = await exchange(postHead(`Content-Type: application/json\r\nContent-Length: ${10 * 2 ** 20}\r\n`));
    expect(responses).toHaveLength(1);
    expectJsonProblem(responses[0], 413, /over the 1 MiB limit: the body was not read/);
    expect(responses[0]?.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('lets a browser read that 413: the CORS headers the app would send', async () => {
    const responses = await exchange(
      postHead(
        `Origin: http://localhost:5173\r\nContent-Type: application/json\r\nContent-Length: ${10 * 2 ** 20}\r\n`,
      ),
    );
    expectJsonProblem(responses[0], 413, /over the 1 MiB limit/);
    expect(responses[0]?.headers['access-control-allow-origin']).toBe('*');
  });

  it('honours Expect: 100-continue: a 100, then the answer to the body sent after it', async () => {
    const connection = await openRaw(server.url);
    connection.socket.write(
      postHead(
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nExpect: 100-continue\r\n`,
      ),
    );
    await connection.waitFor('\r\n\r\n');
    expect(connection.received()).toBe('HTTP/1.1 100 Continue\r\n\r\n');
    connection.socket.write(body);
    await connection.waitFor('}]');
    const [interim, final] = parseResponses(connection.received());
    expect(interim?.status).toBe(100);
    expect(final?.status).toBe(200);
    expect(expectEvaluations(JSON.parse(final?.body ?? ''))).toHaveLength(2);
    connection.socket.destroy();
  });

  it('refuses a body behind Expect: 100-continue without a 100 when it would be refused (413, 415)', async () => {
    const tooLarge = await exchange(
      postHead(`Content-Type: application/json\r\nContent-Length: ${2 * 2 ** 20}\r\nExpect: 100-continue\r\n`),
    );
    expect(tooLarge.map((response) => response.status)).toEqual([413]);
    const connection = await openRaw(server.url);
    // A Content-Encoding the mock cannot decode is known before the body; a media type is not (FastAPI reads any).
    const unknownCoding = 'Content-Type: application/json\r\nContent-Encoding: compress\r\n';
    connection.socket.write(postHead(`${unknownCoding}Content-Length: 10\r\nExpect: 100-continue\r\n`));
    await connection.waitFor('}');
    const responses = parseResponses(connection.received());
    expect(responses.map((response) => response.status)).toEqual([415]);
    expectJsonProblem(responses[0], 415, /Content-Encoding/);
    // The client never sent the body it announced: the connection cannot carry another request.
    expect(responses[0]?.headers.connection).toBe('close');
    connection.socket.destroy();
  });

  it('answers any other Expect with a JSON 417', async () => {
    const responses = await exchange(
      postHead('Content-Type: application/json\r\nContent-Length: 2\r\nExpect: 200-ok\r\n'),
    );
    expect(responses.map((response) => response.status)).toEqual([417]);
    expectJsonProblem(responses[0], 417, /only 100-continue/);
  });

  it('answers bytes that are not HTTP with a JSON 400', async () => {
    const responses = await exchange('HELLO\r\n\r\n');
    expectJsonProblem(responses[0], 400, /not valid HTTP/);
  });

  it('answers a POST with an empty body as FastAPI does, any Content-Type: 422, body Field required', async () => {
    for (const type of ['application/json', 'application/json; charset=utf-8', 'text/plain']) {
      const connection = await openRaw(server.url);
      connection.socket.write(postHead(`Content-Type: ${type}\r\nContent-Length: 0\r\n`));
      await connection.waitFor('missing"}]}');
      const [response] = parseResponses(connection.received());
      expect(response?.status, type).toBe(422);
      expect(JSON.parse(response?.body ?? '')).toEqual(noBodyAnswer);
      connection.socket.destroy();
    }
  });
});

describe('slow clients', () => {
  let bounded: MockServer;

  beforeAll(async () => {
    bounded = await startMockServer({ port: 0, headersTimeoutMs: 200, requestTimeoutMs: 400 });
  });

  afterAll(async () => {
    await bounded.close();
  });

  /** Sends the bytes one at a time, a byte every 20 ms, until the server closes the connection or all are sent. */
  async function trickle(bytes: string): Promise<{ sent: number; responses: RawResponse[] }> {
    const connection = await openRaw(bounded.url);
    let sent = 0;
    const timer = setInterval(() => {
      if (sent < bytes.length && !connection.socket.destroyed) connection.socket.write(bytes[sent++] as string);
    }, 20);
    await connection.closed;
    clearInterval(timer);
    return { sent, responses: parseResponses(connection.received()) };
  }

  it('answers a body sent a byte at a time with a JSON 408 and closes before the body is complete', async () => {
    const length = Buffer.byteLength(body);
    const request = `${postHead(`Content-Type: application/json\r\nContent-Length: ${length}\r\n`)}${body}`;
    const { sent, responses } = await trickle(request);
    expect(sent).toBeLessThan(request.length);
    expect(responses).toHaveLength(1);
    expectJsonProblem(responses[0], 408, /not received in full within 0.4 s/);
  });

  it('answers headers sent a byte at a time with a JSON 408', async () => {
    const head = `GET /human-evaluations/abc HTTP/1.1\r\nHost: mock\r\nX-Padding: ${'p'.repeat(200)}\r\n\r\n`;
    const { sent, responses } = await trickle(head);
    expect(sent).toBeLessThan(head.length);
    expectJsonProblem(responses[0], 408, /not received in full/);
  });

  it('refuses time bounds that cannot hold, and fits the headers bound under a request bound given alone', async () => {
    await expect(startMockServer({ port: 0, headersTimeoutMs: 500, requestTimeoutMs: 100 })).rejects.toThrow(
      /at least headersTimeoutMs/,
    );
    await expect(startMockServer({ port: 0, requestTimeoutMs: 0 })).rejects.toThrow(/positive integer/);
    await expect(startMockServer({ port: 0, headersTimeoutMs: 1.5 })).rejects.toThrow(
      /headersTimeoutMs must be a positive integer/,
    );
    const requestOnly = await startMockServer({ port: 0, requestTimeoutMs: 300 });
    try {
      const [response] = await exchangeRaw(requestOnly.url, 'GET /human-evaluations/abc HTTP/1.1\r\nHost: mock\r\n');
      expectJsonProblem(response, 408, /within 0.3 s/);
    } finally {
      await requestOnly.close();
    }
  });
});
