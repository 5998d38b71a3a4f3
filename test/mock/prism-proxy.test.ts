import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluationStates } from '../../generators/vocabulary.js';
import { profiles } from '../../generators/index.js';
import { scenarioCodes, startMockServer, type MockServer } from '../../mock/index.js';
import { createRequest } from './helpers.js';
import { startPrism, writeOpenApiFile, type PrismProcess } from '../helpers/prism.js';
import { removeTempDirs } from '../helpers/temp-dirs.js';

/**
 * An independent cross-check: Prism's validation proxy, reading our OpenAPI document, sits in front of the mock and
 * reports any request or response that breaks the document (with --errors, as a 500 with sl-violations).
 */
let mock: MockServer;
let prism: PrismProcess;

beforeAll(async () => {
  mock = await startMockServer({ port: 0 });
  prism = await startPrism(['proxy', await writeOpenApiFile('json'), mock.url, '--errors']);
}, 90_000);

afterAll(async () => {
  await prism?.stop();
  await mock?.close();
  removeTempDirs();
});

async function throughPrism(path: string, init: RequestInit = {}): Promise<Response> {
  const res = await fetch(`${prism.url}${path}`, init);
  const violations = res.headers.get('sl-violations');
  expect(violations, `Prism reports violations for ${init.method ?? 'GET'} ${path}: ${violations}`).toBeNull();
  return res;
}

function postThroughPrism(prefer: string, body: unknown = createRequest()): Promise<Response> {
  return fetch(`${prism.url}/evaluations`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Prefer: prefer },
    body: JSON.stringify(body),
  });
}

describe('Prism validation proxy in front of the mock', () => {
  it('reports no violation for GET /human-evaluations/{id}, in every profile', async () => {
    for (const profile of profiles) {
      for (const id of ['6637c0a25368ef07b03a64cd', 'abc', 'ünï-çødé']) {
        const res = await throughPrism(`/human-evaluations/${encodeURIComponent(id)}`, {
          headers: { Prefer: `profile=${profile}` },
        });
        expect(res.status).toBe(200);
        expect(((await res.json()) as { id: string }).id).toBe(id);
      }
    }
  }, 120_000);

  it('reports no violation for POST /evaluations, in every state and profile', async () => {
    for (const state of evaluationStates) {
      for (const profile of profiles) {
        const res = await postThroughPrism(`state=${state}, profile=${profile}`);
        expect(res.headers.get('sl-violations'), `${state} ${profile}`).toBeNull();
        expect(res.status).toBe(200);
        expect(((await res.json()) as unknown[]).length).toBe(2);
      }
    }
  }, 120_000);

  it("reports no violation for the mock's error answers: the document declares their bodies", async () => {
    for (const code of scenarioCodes.filter((code) => code !== 200)) {
      const fetched = await throughPrism('/human-evaluations/abc', { headers: { Prefer: `code=${code}` } });
      expect(fetched.status).toBe(code);
      expect(await fetched.json()).toHaveProperty('detail');
      const created = await postThroughPrism(`code=${code}`);
      expect(created.headers.get('sl-violations'), `POST code=${code}`).toBeNull();
      expect(created.status).toBe(code);
      expect(await created.json()).toHaveProperty('detail');
    }
  }, 120_000);

  it('does report the nullable flavour, outside the spec on purpose (the proxy is really checking)', async () => {
    const res = await postThroughPrism('nullable=true, profile=minimal');
    expect(res.status).toBe(500);
    expect(res.headers.get('sl-violations')).toMatch(/testset_id must be string/);
  }, 120_000);
});
