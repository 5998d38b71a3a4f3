import { readFileSync } from 'node:fs';
import { get } from 'node:http';
import { join } from 'node:path';
import { brotliCompressSync, constants, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { closeAll, failedIds, judged, plain, proxyTo, recorded } from './helpers.js';
import { removeTempDirs, tempDir } from '../helpers/temp-dirs.js';

/** A target that compresses its answers as any CDN does for a browser, and some that abuse it. */

afterEach(closeAll);
afterAll(removeTempDirs);

const id = '6637c0a25368ef07b03a64cd';
const record = readFileSync(join('fixtures/mock/human-evaluations', `${id}.json`));

/** The exact bytes a client gets, no decoding on the way (fetch would inflate them). */
function rawBytes(url: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    get(url, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve(Buffer.concat(chunks)));
    }).on('error', reject);
  });
}

/** A target answering the fetch with `body` as it is, labelled with `encoding`. */
function compressing(encoding: string, body: Buffer) {
  return plain((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': encoding });
    res.end(body);
  });
}

/**
 * The fetch of `body`, labelled `encoding`, sent through a proxy (recording into `recordDir` when given): the bytes
 * the client got, once the proxy has judged the answer (and recorded it).
 */
async function fetchedThrough(encoding: string, body: Buffer, recordDir?: string) {
  const target = await compressing(encoding, body);
  const watched = await proxyTo(target.url, recordDir === undefined ? {} : { recordDir });
  const bytes = await rawBytes(`${watched.proxy.url}/human-evaluations/${id}`);
  await judged(watched, 1);
  if (recordDir !== undefined) await recorded(watched, 1);
  return { watched, bytes };
}

function findingsOf(watched: Awaited<ReturnType<typeof proxyTo>>): string[] {
  return watched.proxy.report().checks.flatMap((check) => check.findings);
}

describe('evalkit proxy judges compressed answers as the client decodes them', () => {
  it.each([
    ['gzip', gzipSync(record)],
    ['x-gzip', gzipSync(record)],
    ['deflate', deflateSync(record)],
    ['deflate', deflateRawSync(record)],
    ['br', brotliCompressSync(record)],
    ['gzip, br', brotliCompressSync(gzipSync(record))],
    ['identity, gzip', gzipSync(record)],
  ])('Content-Encoding %s: checked as decoded, recorded decoded, forwarded byte for byte', async (encoding, body) => {
    const dir = tempDir();
    const { watched, bytes } = await fetchedThrough(encoding, body, dir);
    expect(bytes.equals(body)).toBe(true);
    expect(failedIds(watched.proxy)).toEqual([]);
    expect(watched.proxy.report().checks.find((check) => check.id === 'fetch.body.schema')?.outcome).toBe('passed');
    const written = readFileSync(join(dir, 'human-evaluations', `${id}.json`), 'utf8');
    expect(JSON.parse(written)).toEqual(JSON.parse(record.toString()));
  });

  it.each([
    ['gzip', gzipSync],
    ['br', (bytes: Buffer) => brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 1 } })],
    ['deflate', deflateSync],
  ])(
    'a %s bomb: a finding that it is too large once decoded, forwarded as sent, not recorded',
    async (encoding, pack) => {
      // 16 MiB of spaces after a JSON value (four times the cap): a few KiB on the wire.
      const bomb = pack(Buffer.concat([record, Buffer.alloc(16 * 1024 * 1024, 0x20)]));
      const { watched, bytes } = await fetchedThrough(encoding, bomb, tempDir());
      expect(bytes.equals(bomb)).toBe(true);
      expect(failedIds(watched.proxy)).toEqual(['fetch.transport']);
      expect(findingsOf(watched)).toContainEqual(
        expect.stringMatching(new RegExp(`exceeds the 4\\.0 MiB cap once decoded \\(Content-Encoding: ${encoding}\\)`)),
      );
      expect(watched.recordings).toEqual([
        { label: `GET /human-evaluations/${id}`, refused: expect.stringMatching(/^the answer is not whole \(/) },
      ]);
    },
  );

  it('an encoding not asked for is a finding naming it; bytes that do not decode are one too', async () => {
    const { watched } = await fetchedThrough('gzip, zstd', gzipSync(record));
    expect(findingsOf(watched)).toEqual([
      expect.stringContaining('the body is in a Content-Encoding evalkit neither asks for nor reads ("zstd")'),
    ]);

    const { watched: second } = await fetchedThrough('gzip', Buffer.from('this is not gzip'));
    expect(findingsOf(second)).toEqual([
      expect.stringContaining('the body does not decode as its Content-Encoding says (gzip)'),
    ]);
  });

  it('an empty body is empty whatever its Content-Encoding says (a 404 through a gzip filter)', async () => {
    const target = await plain((_req, res) => res.writeHead(404, { 'content-encoding': 'gzip' }).end());
    const watched = await proxyTo(target.url);
    expect(await rawBytes(`${watched.proxy.url}/human-evaluations/${id}`)).toEqual(Buffer.alloc(0));
    await judged(watched, 1);
    expect(findingsOf(watched)).toEqual([]);
  });

  it("asks the target only for codings it can judge: a browser's zstd is not passed on", async () => {
    // A CDN answers zstd to a browser that lists it; Node has no zstd decoder to judge that answer by.
    const target = await plain((req, res) => {
      const zstd = /zstd/.test(req.headers['accept-encoding'] ?? '');
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': zstd ? 'zstd' : 'gzip' });
      res.end(zstd ? Buffer.from([0x28, 0xb5, 0x2f, 0xfd]) : gzipSync(record));
    });
    const watched = await proxyTo(target.url);
    const asked = { 'accept-encoding': 'gzip, deflate, br, zstd;q=1.0, *;q=0.1' };
    await fetch(`${watched.proxy.url}/human-evaluations/${id}`, { headers: asked });
    await fetch(`${watched.proxy.url}/assets/app.js`, { headers: asked });
    await judged(watched, 2);
    expect(target.requests.map((req) => req.headers['accept-encoding'])).toEqual([
      'gzip, deflate, br',
      asked['accept-encoding'],
    ]);
    expect(failedIds(watched.proxy)).toEqual([]);
  });
});
