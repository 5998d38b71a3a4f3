import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockApp, scenarioCodes, startMockServer, type MockServer } from '../../mock/index.js';
import { openApiDocument } from '../../api/openapi.js';
import type { SchemaName } from '../../schemas/index.js';
import { createRequest, expectValid } from './helpers.js';

type Responses = Record<string, { content?: { 'application/json'?: { schema?: { $ref?: string } } } }>;

const paths = openApiDocument().paths as Record<string, Record<string, { operationId: string; responses: Responses }>>;
const responsesOf = Object.fromEntries(
  Object.values(paths).flatMap((methods) =>
    Object.values(methods).map((operation) => [operation.operationId, operation.responses]),
  ),
);

/** The schema the OpenAPI document gives an error answer of an operation: its status's response, or the default one. */
function documentedSchema(operationId: string, status: number): SchemaName {
  const responses = responsesOf[operationId] as Responses;
  const ref = (responses[String(status)] ?? responses.default)?.content?.['application/json']?.schema?.$ref;
  expect(ref, `${operationId} ${status} has a JSON body in the document`).toBeDefined();
  return ref!.split('/').pop() as SchemaName;
}

/** An error answer is JSON, and its body is what the document declares for its status. */
function expectDocumented(
  operationId: string,
  res: { status: number; headers: Record<string, string>; body: unknown },
  status: number,
): void {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expectValid(documentedSchema(operationId, status), res.body);
}

const app = createMockApp();
const post = (body: string, contentType = 'application/json') =>
  request(app)
    .post('/evaluations')
    .set('Content-Type', contentType)
    .serialize((data: unknown) => data as string)
    .send(body);

describe("the mock's error answers are what the OpenAPI document declares", () => {
  it.each(scenarioCodes.filter((code) => code !== 200))('Prefer: code=%i, both operations', async (code) => {
    expectDocumented(
      'fetchHumanEvaluation',
      await request(app).get('/human-evaluations/abc').set('Prefer', `code=${code}`),
      code,
    );
    expectDocumented(
      'createEvaluations',
      await post(JSON.stringify(createRequest())).set('Prefer', `code=${code}`),
      code,
    );
  });

  it('422 for a body that breaks the schema, a missing body, and an over-long id', async () => {
    const invalid = await post(
      JSON.stringify(createRequest({ app_id: 1, variant_ids: [1, 'b'], rate_limit: undefined })),
    );
    expectDocumented('createEvaluations', invalid, 422);
    expect(invalid.body.detail.length).toBeGreaterThanOrEqual(3);
    expectDocumented('createEvaluations', await request(app).post('/evaluations'), 422);
    expectDocumented('fetchHumanEvaluation', await request(app).get(`/human-evaluations/${'x'.repeat(5000)}`), 422);
  });

  it("422 for JSON Python refuses or another media type, as FastAPI; 400, 413, 415 for the mock's bounds", async () => {
    expectDocumented('createEvaluations', await post('{"app_id": '), 422);
    expectDocumented('createEvaluations', await post('app_id=a', 'application/x-www-form-urlencoded'), 422);
    expectDocumented('createEvaluations', await post('{"__proto__": {}}'), 400);
    expectDocumented(
      'createEvaluations',
      await post(JSON.stringify(createRequest({ correct_answer_column: 'x'.repeat(1024 * 1024) }))),
      413,
    );
    expectDocumented(
      'createEvaluations',
      await request(app)
        .post('/evaluations')
        .set('Content-Type', 'application/json')
        .set('Content-Encoding', 'compress')
        .send('{}'),
      415,
    );
    expectDocumented(
      'fetchHumanEvaluation',
      await request(app).get('/human-evaluations/abc').set('Prefer', 'code=abc'),
      400,
    );
  });

  it('404 for an unknown id under --strict-ids or an unknown path, 405 for another method', async () => {
    const strict = createMockApp({
      strictIds: true,
      fixturesDir: new URL('../../fixtures/mock', import.meta.url).pathname,
    });
    expectDocumented('fetchHumanEvaluation', await request(strict).get('/human-evaluations/no-such-id'), 404);
    const unknownPath = await request(app).get('/evaluations/abc').expect(404);
    expectValid('HTTPError', unknownPath.body);
    expectDocumented('fetchHumanEvaluation', await request(app).delete('/human-evaluations/abc'), 405);
    expectDocumented('createEvaluations', await request(app).get('/evaluations'), 405);
  });

  describe('on a real server', () => {
    let server: MockServer;
    beforeAll(async () => {
      server = await startMockServer({ port: 0 });
    });
    afterAll(async () => server?.close());

    it('431 for headers over 16 KiB', async () => {
      const res = await fetch(`${server.url}/human-evaluations/abc`, {
        headers: { 'X-Padding': 'x'.repeat(20 * 1024) },
      });
      expectDocumented(
        'fetchHumanEvaluation',
        {
          status: res.status,
          headers: { 'content-type': res.headers.get('content-type') ?? '' },
          body: await res.json(),
        },
        431,
      );
    });
  });
});
