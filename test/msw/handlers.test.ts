import { gzipSync } from 'node:zlib';
import { setupServer } from 'msw/node';
import { afterEach, beforeAll, afterAll, describe, expect, it } from 'vitest';
import { generators } from '../../generators/index.js';
import { MockSetupError } from '../../mock/index.js';
import { createHandlers, handlers } from '../../mock/msw/index.js';
import { createRequest, expectValid, sdkCreateRequest } from '../mock/helpers.js';
import { answeredBy, appsOwnHandler } from './app-handler.js';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

describe('evalkit/msw handlers', () => {
  it('default handlers answer both operations on any origin and let other requests of the app pass by', async () => {
    server.use(...handlers, appsOwnHandler);
    const res = await fetch('http://any-host.test/human-evaluations/abc');
    expect(res.status).toBe(200);
    expectValid('HumanEvaluation', await res.json());
    expect(answeredBy(await fetch('http://any-host.test/other/path'))).toBe('app');
  });

  it("reads an SDK's null optional fields as absent, as the Express mock does; strictNulls refuses them", async () => {
    server.use(...handlers);
    const post = (prefer: string) =>
      fetch('http://app.test/evaluations', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Prefer: prefer },
        body: JSON.stringify(sdkCreateRequest()),
      });
    const res = await post('');
    expect(res.status).toBe(200);
    expect(((await res.json()) as unknown[]).length).toBe(2);
    expect((await post('strictNulls=true')).status).toBe(422);
  });

  it("takes the era as an option: a create's state and the style of ids the request does not imply", async () => {
    server.use(...createHandlers({ era: '0.17', seed: 4 }));
    const res = await fetch('http://app.test/evaluations', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(createRequest()),
    });
    const [evaluation] = (await res.json()) as Array<{ id: string; status: { value: string } }>;
    expect(evaluation?.status.value).toBe('EVALUATION_STARTED');
    expect(evaluation?.id).toMatch(/^[0-9a-f]{24}$/);
    expect(() => createHandlers({ era: 'latest' })).toThrow(MockSetupError);
  });

  it('an absolute baseUrl owns its origin and path only, unknown paths under it get the mock 404', async () => {
    server.use(...createHandlers({ baseUrl: 'http://localhost:8000/api' }), appsOwnHandler);
    expect((await fetch('http://localhost:8000/api/human-evaluations/abc')).status).toBe(200);
    const missing = await fetch('http://localhost:8000/api/nope');
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { detail: string }).detail).toMatch(/GET \/api\/human-evaluations/);
    expect(answeredBy(await fetch('http://localhost:9999/api/human-evaluations/abc'))).toBe('app');
  });

  it('serves fixtures given as objects, strict ids, seed, profile, scenario and latency options', async () => {
    const fixture = { ...generators.HumanEvaluation(3, { id: 'known' }), testset_name: 'from a fixture object' };
    server.use(
      ...createHandlers({
        fixtures: [fixture],
        strictIds: true,
        scenario: { state: 'failed' },
        latency: 1,
        seed: 9,
        profile: 'full',
      }),
    );
    const known = await fetch('http://app.test/human-evaluations/known');
    expect(await known.json()).toEqual({ ...fixture, status: 'EVALUATION_FAILED' });
    expect((await fetch('http://app.test/human-evaluations/unknown')).status).toBe(404);
  });

  it('reads bodies with a Content-Encoding as the Express mock does: gzip, deflate inflated, others 415', async () => {
    server.use(...createHandlers({ now: '2026-01-02T03:04:05Z' }));
    const post = (body: Uint8Array | string, encoding: string) =>
      fetch('http://app.test/evaluations', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Content-Encoding': encoding },
        body,
      });
    const plain = JSON.stringify(createRequest());
    const gzipped = await post(gzipSync(plain), 'gzip');
    expect(gzipped.status).toBe(200);
    expect(await gzipped.text()).toBe(await (await post(plain, 'identity')).text());
    expect((await post(plain, 'compress')).status).toBe(415);
    expect((await post('{"not": "gzip"}', 'gzip')).status).toBe(400);
    expect(
      (await post(gzipSync(JSON.stringify(createRequest({ correct_answer_column: 'x'.repeat(1024 * 1024) }))), 'gzip'))
        .status,
    ).toBe(413);
  });

  it('refuses invalid options with a MockSetupError naming the problem', () => {
    expect(() => createHandlers({ profile: 'wild' as never })).toThrow(MockSetupError);
    expect(() => createHandlers({ latency: 'soon' })).toThrow(/'latency' accepts MS or MIN-MAX/);
    expect(() => createHandlers({ fixtures: [{ id: 'x' }] })).toThrow(/fixtures\[0\]: .*required/);
  });

  it('names a baseUrl without its scheme as written, and what to write', () => {
    // `localhost:8000/api` parses as a URL of scheme `localhost:`, whose path `8000/api` the user never wrote.
    for (const baseUrl of ['localhost:8000/api', 'ws://localhost:8000/api', 'http//localhost/api']) {
      expect(() => createHandlers({ baseUrl })).toThrow(MockSetupError);
      expect(() => createHandlers({ baseUrl })).toThrow(
        `baseUrl '${baseUrl}' must be an http(s) URL such as http://localhost:8000/api, a path such as /api, or ''`,
      );
    }
  });

  it('says which setup error it threw when printed', () => {
    const error = (options: Parameters<typeof createHandlers>[0]) => {
      try {
        createHandlers(options);
      } catch (thrown) {
        return String(thrown);
      }
      return 'nothing thrown';
    };
    expect(error({ latency: 'soon' })).toMatch(/^ScenarioError: scenario key 'latency'/);
    expect(error({ fixtures: [{ id: 'x' }] })).toMatch(/^FixtureError: fixtures: /);
    expect(error({ baseUrl: '/a b' })).toMatch(/^MockSetupError: base path '\/a b'/);
  });
});
