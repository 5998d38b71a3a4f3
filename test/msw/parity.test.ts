import './node20-shims.js';
import { setupServer } from 'msw/node';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockApp } from '../../mock/index.js';
import { createHandlers } from '../../mock/msw/index.js';
import { parityCorpus, type CorpusRequest } from './corpus.js';

/** What must be equal through both adapters: the status, the headers a client reads, and the body's bytes. */
interface Observed {
  status: number;
  contentType: string | undefined;
  allow: string | undefined;
  preferenceApplied: string | undefined;
  body: string;
}

const basePath = '/api';
const origin = 'http://evaluation-service.test';
const options = { seed: 'parity', profile: 'mixed' as const };
const app = createMockApp({ ...options, basePath });
const server = setupServer(...createHandlers({ ...options, baseUrl: `${origin}${basePath}` }));

async function throughExpress(entry: CorpusRequest): Promise<Observed> {
  let req = request(app)[entry.method.toLowerCase() as 'get'](`${basePath}${entry.path}`);
  for (const [name, value] of Object.entries(entry.headers ?? {})) req = req.set(name, value);
  // Raw bytes, as sent and as received: no serializer or parser of supertest's in between.
  req = req.buffer(true).parse((res, done) => {
    const chunks: Buffer[] = [];
    res.on('data', (chunk: Buffer) => chunks.push(chunk));
    res.on('end', () => done(null, Buffer.concat(chunks)));
  });
  const res = entry.body === undefined ? await req : await req.serialize((data: unknown) => data as string).send(entry.body);
  return {
    status: res.status,
    contentType: res.headers['content-type'],
    allow: res.headers.allow,
    preferenceApplied: res.headers['preference-applied'],
    // supertest runs no parser for a HEAD answer, which has no body.
    body: Buffer.isBuffer(res.body) ? res.body.toString('utf8') : '',
  };
}

async function throughMsw(entry: CorpusRequest): Promise<Observed> {
  const res = await fetch(`${origin}${basePath}${entry.path}`, { method: entry.method, headers: entry.headers, body: entry.body });
  return {
    status: res.status,
    contentType: res.headers.get('content-type') ?? undefined,
    allow: res.headers.get('allow') ?? undefined,
    preferenceApplied: res.headers.get('preference-applied') ?? undefined,
    body: await res.text(),
  };
}

beforeAll(() => server.listen({ onUnhandledFrame: 'bypass' }));
afterAll(() => server.close());

describe('the same answers through Express (supertest) and MSW (msw/node setupServer + fetch)', () => {
  const corpus = parityCorpus();

  it('has a corpus of at least 200 requests covering every status the mock answers with', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(200);
  });

  it('answers every request of the corpus with equal status, Content-Type, Allow, Preference-Applied and body bytes', async () => {
    const statuses = new Set<number>();
    for (const entry of corpus) {
      const [express, msw] = [await throughExpress(entry), await throughMsw(entry)];
      expect(msw, entry.name).toEqual(express);
      statuses.add(express.status);
    }
    expect([...statuses].sort()).toEqual([200, 204, 400, 401, 403, 404, 405, 413, 415, 422, 429, 500, 503]);
  });
});

describe('faults through both adapters', () => {
  for (const fault of ['reset', 'truncate']) {
    it(`Prefer: fault=${fault} breaks the answer in transport through both`, async () => {
      const entry: CorpusRequest = { name: fault, method: 'GET', path: '/human-evaluations/abc', headers: { Prefer: `fault=${fault}` } };
      await expect(throughExpress(entry)).rejects.toThrow();
      await expect(throughMsw(entry)).rejects.toThrow();
    });
  }
});
