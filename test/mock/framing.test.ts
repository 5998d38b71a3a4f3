import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maxHeaderFields } from '../../mock/core/limits.js';
import { startMockServer, type MockServer } from '../../mock/index.js';
import { createRequest } from './helpers.js';
import { exchangeRaw } from './raw-http.js';

let server: MockServer;

beforeAll(async () => {
  server = await startMockServer({ port: 0 });
});

afterAll(async () => {
  await server.close();
});

const exchange = (bytes: string) => exchangeRaw(server.url, bytes, 'latin1');

const body = JSON.stringify(createRequest());
const json = 'Content-Type: application/json\r\n';
const post = `POST /evaluations HTTP/1.1\r\nHost: m\r\n${json}`;
/** A request a front proxy might see as part of a body: it must never be answered on its own. */
const smuggled = 'GET /__evalkit/requests HTTP/1.1\r\nHost: localhost\r\n\r\n';
const chunked = (text: string) => `${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n0\r\n\r\n`;

/** Each shape: the request head, then a body hiding `smuggled`. */
const ambiguous: Array<{ name: string; bytes: string; detail: RegExp }> = [
  {
    name: 'Content-Length with Transfer-Encoding',
    bytes: `${post}Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n${smuggled}`,
    detail: /Transfer-Encoding can't be present with Content-Length/,
  },
  {
    name: 'two different Content-Lengths',
    bytes: `${post}Content-Length: 0\r\nContent-Length: ${smuggled.length}\r\n\r\n${smuggled}`,
    detail: /Duplicate Content-Length/,
  },
  {
    name: 'Transfer-Encoding: chunked, chunked',
    bytes: `${post}Transfer-Encoding: chunked, chunked\r\n\r\n${chunked(smuggled)}`,
    detail: /Transfer-Encoding/,
  },
  {
    name: 'Transfer-Encoding: gzip',
    bytes: `${post}Transfer-Encoding: gzip\r\n\r\n${smuggled}`,
    detail: /Transfer-Encoding/,
  },
  {
    name: 'Transfer-Encoding: gzip, chunked',
    bytes: `${post}Transfer-Encoding: gzip, chunked\r\n\r\n${chunked(smuggled)}`,
    detail: /Transfer-Encoding must be chunked alone/,
  },
  {
    name: 'two Transfer-Encoding headers',
    bytes: `${post}Transfer-Encoding: chunked\r\nTransfer-Encoding: x\r\n\r\n${smuggled}`,
    detail: /Transfer-Encoding/,
  },
  {
    name: 'whitespace before the colon',
    bytes: `${post}Transfer-Encoding : chunked\r\nContent-Length: 0\r\n\r\n${smuggled}`,
    detail: /Invalid header field char/,
  },
  {
    name: 'an obs-fold',
    bytes: `${post}Transfer-Encoding: x,\r\n chunked\r\n\r\n${chunked(smuggled)}`,
    detail: /not valid HTTP/,
  },
  {
    name: 'bare LF line endings',
    bytes: `POST /evaluations HTTP/1.1\nHost: m\nContent-Length: 0\n\n${smuggled}`,
    detail: /not valid HTTP/,
  },
  {
    name: 'a bare CR',
    bytes: `POST /evaluations HTTP/1.1\r\nHost: m\rContent-Length: 0\r\n\r\n${smuggled}`,
    detail: /not valid HTTP/,
  },
  {
    name: 'Transfer-Encoding in HTTP/1.0',
    bytes: `POST /evaluations HTTP/1.0\r\n${json}Transfer-Encoding: chunked\r\n\r\n${chunked(body)}${smuggled}`,
    detail: /HTTP\/1\.0 request: its framing cannot be trusted/,
  },
  {
    name: 'two Host headers',
    bytes: `GET /human-evaluations/a HTTP/1.1\r\nHost: localhost\r\nHost: attacker.example\r\n\r\n${smuggled}`,
    detail: /more than one Host/,
  },
  {
    name: 'an absolute-form target naming another host than Host',
    bytes: `GET http://attacker.example/__evalkit/requests HTTP/1.1\r\nHost: localhost\r\n\r\n${smuggled}`,
    detail: /names another host than its Host/,
  },
  {
    name: 'a chunk size with a bare LF',
    bytes: `${post}Transfer-Encoding: chunked\r\n\r\n5\nhello\r\n0\r\n\r\n${smuggled}`,
    detail: /not valid HTTP/,
  },
  {
    name: 'a Content-Length with a sign',
    bytes: `${post}Content-Length: +5\r\n\r\nhello${smuggled}`,
    detail: /Invalid character in Content-Length/,
  },
];

describe('ambiguous framing never reaches the app or the control room (raw sockets)', () => {
  for (const shape of ambiguous) {
    it(`answers ${shape.name} with one JSON 400 naming it, then closes`, async () => {
      const responses = await exchange(shape.bytes);
      expect(responses.map((response) => response.status)).toEqual([400]);
      expect(responses[0]?.headers.connection).toBe('close');
      expect(JSON.parse(responses[0]?.body ?? '').detail).toMatch(shape.detail);
    });
  }

  it('serves the odd but unambiguous: chunked in any case, whitespace around it, chunk extensions', async () => {
    for (const header of ['Transfer-Encoding: ChUnKeD', 'Transfer-Encoding:\tchunked ']) {
      const request = `${post}${header}\r\nConnection: close\r\n\r\n`;
      const responses = await exchange(`${request}${chunked(body)}`);
      expect(responses.map((response) => response.status)).toEqual([200]);
    }
    const extension = `${Buffer.byteLength(body).toString(16)};name=value\r\n${body}\r\n0\r\n\r\n`;
    const request = `${post}Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n`;
    expect((await exchange(`${request}${extension}`)).map((response) => response.status)).toEqual([200]);
  });

  it('serves an absolute-form target naming its own Host', async () => {
    const responses = await exchange(
      'GET http://localhost:4010/human-evaluations/abs HTTP/1.1\r\nHost: localhost:4010\r\nConnection: close\r\n\r\n',
    );
    expect(responses.map((response) => response.status)).toEqual([200]);
    expect(JSON.parse(responses[0]?.body ?? '').id).toBe('abs');
  });
});

describe('pipelined requests', () => {
  it('are answered in request order and in full, a latency scenario included, in one TCP write', async () => {
    const requests = [
      'GET /human-evaluations/first HTTP/1.1\r\nHost: m\r\nPrefer: latency=300\r\n\r\n',
      `${post}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      'GET /human-evaluations/third HTTP/1.1\r\nHost: m\r\nPrefer: code=404\r\n\r\n',
      'GET /human-evaluations/fourth HTTP/1.1\r\nHost: m\r\nConnection: close\r\n\r\n',
    ];
    const responses = await exchange(requests.join(''));
    expect(responses.map((response) => response.status)).toEqual([200, 200, 404, 200]);
    expect(JSON.parse(responses[0]?.body ?? '').id).toBe('first');
    expect(JSON.parse(responses[1]?.body ?? '')).toHaveLength(2);
    expect(JSON.parse(responses[3]?.body ?? '').id).toBe('fourth');
  });
});

describe('header floods', () => {
  const get = (headers: string) =>
    `GET /human-evaluations/a HTTP/1.1\r\nHost: m\r\n${headers}Connection: close\r\n\r\n`;

  it(`answers more than ${maxHeaderFields} header fields with a JSON 431, never dropping the rest unseen`, async () => {
    // Node keeps 2,000 fields and drops the others: the Prefer at the end would have gone unseen, answered 200.
    for (const count of [maxHeaderFields + 1, 2_500]) {
      const responses = await exchange(get(`${'a:1\r\n'.repeat(count)}Prefer: code=404\r\n`));
      expect(responses.map((response) => response.status)).toEqual([431]);
      expect(JSON.parse(responses[0]?.body ?? '').detail).toMatch(/more than 100 header fields/);
    }
    const atLimit = await exchange(get('a:1\r\n'.repeat(maxHeaderFields - 3)));
    expect(atLimit.map((response) => response.status)).toEqual([200]);
  });

  it('answers a huge single header with a JSON 431', async () => {
    const responses = await exchange(get(`X-Huge: ${'h'.repeat(20_000)}\r\n`));
    expect(responses.map((response) => response.status)).toEqual([431]);
  });

  it('merges many Prefer headers as one list, and refuses a bad one among them', async () => {
    const many = await exchange(get('Prefer: state=failed\r\n'.repeat(60)));
    expect(many[0]?.status).toBe(200);
    expect(many[0]?.headers['preference-applied']).toBe('state=EVALUATION_FAILED');
    const bad = await exchange(get(`${'Prefer: state=failed\r\n'.repeat(30)}Prefer: stat=x\r\n`));
    expect(bad[0]?.status).toBe(400);
  });

  it('refuses raw bytes outside ASCII in the request target with a JSON 400', async () => {
    const responses = await exchange('GET /human-evaluations/\xc0\xaf\xe2\x80\xae HTTP/1.1\r\nHost: m\r\n\r\n');
    expect(responses.map((response) => response.status)).toEqual([400]);
  });
});
