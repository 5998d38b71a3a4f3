import { gzipSync, brotliCompressSync, deflateRawSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compressionBomb, type BombLayer } from '../../bench/attack-bodies.js';
import { createMockCore, startMockServer, type MockServer } from '../../mock/index.js';
import { handleFetch } from '../../mock/fetch/fetch.js';
import { createRequest } from './helpers.js';
import { exchangeRaw, openRaw, parseResponses, type RawResponse } from './raw-http.js';

const mib = 2 ** 20;
const valid = Buffer.from(JSON.stringify(createRequest()));
let server: MockServer;

beforeAll(async () => {
  server = await startMockServer({ port: 0 });
});

afterAll(async () => {
  await server.close();
});

/** A POST of the bytes on a raw socket, with a Content-Length or chunked; read until the server closes. */
async function post(body: Buffer, encoding: string, framing: 'length' | 'chunked' = 'length'): Promise<RawResponse[]> {
  const connection = await openRaw(server.url);
  const length = framing === 'length' ? `Content-Length: ${body.length}` : 'Transfer-Encoding: chunked';
  const head = `POST /evaluations HTTP/1.1\r\nHost: mock\r\nContent-Type: application/json\r\n${length}\r\n`;
  connection.socket.write(`${head}Content-Encoding: ${encoding}\r\nConnection: close\r\n\r\n`);
  connection.socket.write(framing === 'length' ? body : `${body.length.toString(16)}\r\n`);
  if (framing === 'chunked') connection.socket.write(Buffer.concat([body, Buffer.from('\r\n0\r\n\r\n')]));
  await connection.closed;
  return parseResponses(connection.received());
}

/**
 * 64 MiB inflated is 64 times the body limit; four of them at once hold 256 MiB unbounded, well past what a bounded
 * decoder's few MiB each could reach.
 */
const bomb = (layers: readonly BombLayer[]) => compressionBomb(layers, 64 * mib);

function detailOf(response: RawResponse | undefined): string {
  return JSON.parse(response?.body ?? '{}').detail;
}

const bombs: Array<readonly BombLayer[]> = [
  ['gzip'],
  ['deflate'],
  ['deflate-raw'],
  ['br'],
  ['gzip', 'gzip'],
  ['gzip', 'br'],
  ['deflate', 'gzip', 'deflate-raw'],
];

describe('compression bombs in request bodies, on the node:http server', () => {
  for (const layers of bombs) {
    it(`answers a ${layers.join(', ')} bomb (64 MiB inflated) with a 413, with a length and chunked`, async () => {
      const { body, encoding } = bomb(layers);
      expect(body.length).toBeLessThan(256 * 1024);
      for (const framing of ['length', 'chunked'] as const) {
        const [response] = await post(body, encoding, framing);
        expect(response?.status, framing).toBe(413);
        expect(detailOf(response)).toMatch(/larger than the 1 MiB limit/);
      }
    });
  }

  it('decodes listed codings in reverse order, and deflate with or without its zlib wrapper', async () => {
    const layered = brotliCompressSync(gzipSync(valid));
    expect((await post(layered, 'gzip, br'))[0]?.status).toBe(200);
    expect((await post(deflateRawSync(valid), 'deflate'))[0]?.status).toBe(200);
    expect((await post(gzipSync(valid), ' X-GZIP , identity,'))[0]?.status).toBe(200);
    expect((await post(valid, ''))[0]?.status).toBe(200);
  });

  it('refuses more than three codings, and unknown ones, with a 415 naming them', async () => {
    const [four] = await post(gzipSync(gzipSync(gzipSync(gzipSync(valid)))), 'gzip, gzip, gzip, gzip');
    expect(four?.status).toBe(415);
    expect(detailOf(four)).toMatch(/more than 3 codings/);
    const [unknown] = await post(valid, 'gzip, compress');
    expect(unknown?.status).toBe(415);
    expect(detailOf(unknown)).toMatch(/'compress' is not supported/);
  });

  it('behind Expect: 100-continue: a bomb gets a 100, then a 413; an unknown coding a 415 without a 100', async () => {
    const gzipped = bomb(['gzip']);
    const connection = await openRaw(server.url);
    const head =
      'POST /evaluations HTTP/1.1\r\nHost: mock\r\nContent-Type: application/json\r\nExpect: 100-continue\r\n';
    const length = `Content-Length: ${gzipped.body.length}\r\n`;
    connection.socket.write(`${head}Content-Encoding: gzip\r\n${length}Connection: close\r\n\r\n`);
    await connection.waitFor('100 Continue\r\n\r\n');
    connection.socket.write(gzipped.body);
    await connection.closed;
    expect(parseResponses(connection.received()).map((response) => response.status)).toEqual([100, 413]);
    const unknown = await exchangeRaw(server.url, `${head}Content-Encoding: compress\r\nContent-Length: 10\r\n\r\n`);
    expect(unknown.map((response) => response.status)).toEqual([415]);
  });
});

describe('compression bombs through the Fetch path (handleFetch, as evalkit/msw runs it)', () => {
  const core = createMockCore();
  const send = (body: Uint8Array, encoding: string) =>
    handleFetch(
      core,
      new Request('http://mock.test/evaluations', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Content-Encoding': encoding },
        body: body as Uint8Array<ArrayBuffer>,
      }),
    );

  it('answers gzip, deflate and nested bombs with a 413, holding no more than the limit in memory', async () => {
    const kinds: Array<readonly BombLayer[]> = [['gzip'], ['deflate'], ['deflate-raw'], ['gzip', 'gzip']];
    const sent = kinds.map(bomb);
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
    try {
      const statuses = await Promise.all(sent.map(async ({ body, encoding }) => (await send(body, encoding)).status));
      expect(statuses).toEqual([413, 413, 413, 413]);
    } finally {
      clearInterval(sampler);
    }
    peak = Math.max(peak, process.memoryUsage().rss);
    // Unbounded, these four hold 256 MiB inflated at once; bounded, a few MiB each.
    expect(peak - before).toBeLessThan(100 * mib);
  });

  it('answers codings as the node:http server does: lists decoded, raw deflate read, others 415', async () => {
    expect((await send(gzipSync(gzipSync(valid)), 'gzip, gzip')).status).toBe(200);
    expect((await send(deflateRawSync(valid), 'deflate')).status).toBe(200);
    const unknown = await send(valid, 'compress');
    expect(unknown.status).toBe(415);
    expect(((await unknown.json()) as { detail: string }).detail).toMatch(/'compress' is not supported/);
  });
});
