import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockApp } from '../../mock/index.js';
import { createHandlers } from '../../mock/msw/index.js';
import { parityCorpus, type CorpusRequest } from './corpus.js';
import { observeExpress, observeResponse, type Observed } from './observe.js';

const basePath = '/api';
const origin = 'http://evaluation-service.test';
// The clock pinned: created Evaluations carry the request's moment, which two adapters cannot share otherwise.
const options = { seed: 'parity', profile: 'mixed' as const, now: '2026-01-02T03:04:05.060708Z' };
const app = createMockApp({ ...options, basePath });
const throughExpress = (entry: CorpusRequest) => observeExpress(app, basePath, entry);
const server = setupServer(...createHandlers({ ...options, baseUrl: `${origin}${basePath}` }));

async function throughMsw(entry: CorpusRequest): Promise<Observed> {
  const res = await fetch(`${origin}${basePath}${entry.path}`, {
    method: entry.method,
    headers: entry.headers,
    body: entry.body,
  });
  return observeResponse(res);
}

beforeAll(() => server.listen({ onUnhandledRequest: 'bypass' }));
afterAll(() => server.close());

describe('the same answers through Express (supertest) and MSW (msw/node setupServer + fetch)', () => {
  const corpus = parityCorpus();

  it(`has a corpus of ${corpus.length} requests (at least 200)`, () => {
    expect(corpus.length).toBeGreaterThanOrEqual(200);
  });

  it('answers each corpus request with equal status, Content-Type, Allow, Preference-Applied, body bytes', async () => {
    const statuses = new Set<number>();
    for (const entry of corpus) {
      const [express, msw] = [await throughExpress(entry), await throughMsw(entry)];
      expect(msw, entry.name).toEqual(express);
      statuses.add(express.status);
    }
    expect([...statuses].sort()).toEqual([200, 204, 400, 401, 403, 404, 405, 413, 415, 422, 429, 500, 503]);
    // Over 200 requests through two adapters, compression bombs among them: seconds when quiet, more on a busy machine.
  }, 90_000);
});

describe('faults through both adapters', () => {
  for (const fault of ['reset', 'truncate']) {
    it(`Prefer: fault=${fault} breaks the answer in transport through both`, async () => {
      const entry: CorpusRequest = {
        name: fault,
        method: 'GET',
        path: '/human-evaluations/abc',
        headers: { Prefer: `fault=${fault}` },
      };
      await expect(throughExpress(entry)).rejects.toThrow();
      await expect(throughMsw(entry)).rejects.toThrow();
    });
  }
});

describe('the limits of issue 10 hold in the core, so through MSW as through Express', () => {
  const byName = new Map(parityCorpus().map((entry) => [entry.name, entry]));
  const detailOf = async (name: string) => {
    const observed = await throughMsw(byName.get(name) as CorpusRequest);
    expect(observed.status, name).toBe(422);
    return JSON.parse(observed.body).detail as Array<{ loc: unknown[]; type: string }>;
  };

  it('an empty body gets 422 body Field required, whatever its Content-Type', async () => {
    expect(await detailOf('POST empty body, text/plain')).toEqual([
      {
        type: 'missing',
        loc: ['body'],
        msg: 'Field required',
        input: null,
        url: 'https://errors.pydantic.dev/2.7/v/missing',
      },
    ]);
  });

  it('a list or map over its limit gets its one problem, its items never validated', async () => {
    expect((await detailOf('POST 500 numbers in variant_ids')).map((problem) => problem.type)).toEqual(['too_long']);
    expect((await detailOf('POST 101 lm_providers_keys')).map((problem) => problem.type)).toEqual(['too_long']);
  });

  it('a 422 lists the first 100 problems and counts the rest', async () => {
    const detail = await detailOf('POST 200 wrong items');
    expect(detail).toHaveLength(101);
    expect(detail[100]).toMatchObject({ loc: ['body'], type: 'too_many_problems' });
  });
});
