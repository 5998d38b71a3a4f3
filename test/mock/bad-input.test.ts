import { gzipSync } from 'node:zlib';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createMockApp } from '../../mock/index.js';
import { createRequest, noBodyAnswer, secret } from './helpers.js';

const app = createMockApp();

/** Sends the bytes as they are (supertest would serialize a Buffer as JSON under a JSON Content-Type). */
function postRaw(body: string | Buffer, contentType = 'application/json', encoding?: string) {
  const req = request(app).post('/evaluations').set('Content-Type', contentType);
  if (encoding) req.set('Content-Encoding', encoding);
  return req.serialize((data: unknown) => data as string).send(body as string);
}

/** Every bad input gets a 4xx JSON body whose detail names the problem. */
function expectProblem(res: request.Response, status: number, detail: RegExp): void {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(typeof res.body.detail === 'string' ? res.body.detail : JSON.stringify(res.body.detail)).toMatch(detail);
}

describe('bad input to POST /evaluations', () => {
  it("answers malformed JSON as FastAPI: 422 json_invalid, Python's position and reason, never the text", async () => {
    const res = await postRaw(`{"app_id": "a", "lm_providers_keys": {"OPENAI_API_KEY": ${secret}}}`);
    expect(res.status).toBe(422);
    expect(res.body.detail[0]).toMatchObject({ type: 'json_invalid', msg: 'JSON decode error', input: {} });
    expect(res.text).not.toContain(secret);
    expect((await postRaw('{"app_id": "a",}')).body).toEqual({
      detail: [
        {
          type: 'json_invalid',
          loc: ['body', 15],
          msg: 'JSON decode error',
          input: {},
          ctx: { error: 'Expecting property name enclosed in double quotes' },
        },
      ],
    });
    expect((await postRaw('{"app_id": ')).body.detail[0].ctx).toEqual({ error: 'Expecting value' });
  });

  it('validates a body of another media type as FastAPI does, a text the model refuses; any charset', async () => {
    for (const type of ['application/x-www-form-urlencoded', 'text/plain', 'text/json']) {
      const res = await postRaw(JSON.stringify(createRequest({ lm_providers_keys: { OPENAI_API_KEY: secret } })), type);
      expect(res.status, type).toBe(422);
      expect(res.body.detail[0]).toMatchObject({ type: 'model_attributes_type', loc: ['body'] });
      // pydantic 2 echoes the text; the mock echoes it without the provider key.
      expect(res.body.detail[0].input).toContain('<PROVIDER_KEY>');
      expect(res.text).not.toContain(secret);
    }
    await postRaw(JSON.stringify(createRequest()), 'application/json; charset=latin1').expect(200);
    // With no Content-Type at all, FastAPI reads the body as JSON.
    await request(app)
      .post('/evaluations')
      .serialize((data: unknown) => data as string)
      .send(JSON.stringify(createRequest()) as never)
      .unset('Content-Type')
      .expect(200);
  });

  it('accepts JSON with a UTF-8 charset or a +json media type', async () => {
    await postRaw(JSON.stringify(createRequest()), 'application/json; charset=UTF-8').expect(200);
    await postRaw(JSON.stringify(createRequest()), 'application/vnd.evalkit+json').expect(200);
  });

  it('answers a body over 1 MiB with 413, gzip-inflated bodies included', async () => {
    const big = JSON.stringify(createRequest({ correct_answer_column: 'x'.repeat(1024 * 1024) }));
    expectProblem(await postRaw(big), 413, /larger than the 1 MiB limit/);
    expectProblem(await postRaw(gzipSync(Buffer.from(big)), 'application/json', 'gzip'), 413, /1 MiB/);
    await postRaw(gzipSync(Buffer.from(JSON.stringify(createRequest()))), 'application/json', 'gzip').expect(200);
    expectProblem(
      await postRaw(Buffer.from('{"not": "gzip"}'), 'application/json', 'gzip'),
      400,
      /does not decode with its Content-Encoding/,
    );
  });

  it('answers an unknown Content-Encoding with 415', async () => {
    expectProblem(await postRaw('{}', 'application/json', 'compress'), 415, /Content-Encoding/);
  });

  it('answers no body at all as FastAPI does: 422, body Field required; blanks are JSON Python refuses', async () => {
    const res = await request(app).post('/evaluations').expect(422);
    expect(res.body).toEqual(noBodyAnswer);
    expect((await postRaw('   ').expect(422)).body.detail[0]).toMatchObject({ type: 'json_invalid', loc: ['body', 3] });
  });

  it("answers bytes that are not UTF-8 with FastAPI's 400", async () => {
    const invalid = Buffer.concat([Buffer.from('{"app_id": "'), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from('"}')]);
    expectProblem(await postRaw(invalid), 400, /There was an error parsing the body/);
  });

  it('refuses a __proto__ key anywhere with 400 naming where; constructor and prototype pass', async () => {
    const proto = '{"app_id":"a","rate_limit":{"__proto__":{"polluted":true},"batch_size":1}}';
    expectProblem(await postRaw(proto), 400, /forbidden key '__proto__' at \/rate_limit/);
    await postRaw(JSON.stringify(createRequest({ constructor: { prototype: {} } }))).expect(200);
    await postRaw(JSON.stringify(createRequest({ lm_providers_keys: { prototype: 'x' } }))).expect(200);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses deep nesting with 400, however deep, without exhausting the stack', async () => {
    const deep = `{"app_id": ${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    expectProblem(await postRaw(deep), 400, /nests deeper than 32 levels/);
    const deepObject = `${'{"a":'.repeat(50)}1${'}'.repeat(50)}`;
    expectProblem(await postRaw(deepObject), 400, /nests deeper/);
  });
});

describe('bad paths and methods', () => {
  it('answers an unknown path with 404 JSON naming what the mock serves', async () => {
    for (const path of ['/', '/evaluation', '/human-evaluations', '/human-evaluations/a/b', '/api/evaluations']) {
      expectProblem(
        await request(app).get(path),
        404,
        /this mock serves GET \/human-evaluations\/\{evaluation_id\} and POST \/evaluations/,
      );
    }
  });

  it('answers a wrong method with 405 and an Allow header', async () => {
    const put = await request(app).put('/human-evaluations/abc').send({});
    expectProblem(put, 405, /Method Not Allowed/);
    expect(put.headers.allow).toBe('GET, HEAD, OPTIONS');
    for (const method of ['get', 'put', 'patch', 'delete'] as const) {
      const res = await request(app)[method]('/evaluations');
      expectProblem(res, 405, /Method Not Allowed/);
      expect(res.headers.allow).toBe('POST, OPTIONS');
    }
  });

  it('answers a plain OPTIONS with 204 and Allow', async () => {
    const res = await request(app).options('/evaluations').expect(204);
    expect(res.headers.allow).toBe('POST, OPTIONS');
  });

  it('answers very long ids with 422 in the FastAPI shape, and ids at the limit normally', async () => {
    const res = await request(app).get(`/human-evaluations/${'a'.repeat(1025)}`);
    expectProblem(res, 422, /at most 1024 characters/);
    expect(res.body.detail[0].loc).toEqual(['path', 'evaluation_id']);
    const atLimit = await request(app)
      .get(`/human-evaluations/${'a'.repeat(1024)}`)
      .expect(200);
    expect(atLimit.body.id).toHaveLength(1024);
  });

  it('answers ids with broken percent-encoding with 400, and serves odd but valid ids as they are', async () => {
    expectProblem(await request(app).get('/human-evaluations/%E0%A4%A'), 400, /percent-encoded/);
    for (const id of ['../../etc/passwd', '..%2F..', 'ünïcødé 评估', "' OR 1=1 --", '%00']) {
      const res = await request(app)
        .get(`/human-evaluations/${encodeURIComponent(id)}`)
        .expect(200);
      expect(res.body.id).toBe(id);
    }
  });

  it('refuses a bad Prefer header with 400 naming the key and what it accepts', async () => {
    expectProblem(
      await request(app).get('/human-evaluations/a').set('Prefer', 'stat=failed'),
      400,
      /unknown scenario key 'stat'/,
    );
    expectProblem(
      await request(app).get('/human-evaluations/a').set('Prefer', 'code=418'),
      400,
      /'code' accepts 200, 401/,
    );
    expectProblem(
      await request(app).get('/human-evaluations/a').set('Prefer', 'latency=-5'),
      400,
      /'latency' accepts MS or MIN-MAX/,
    );
    expectProblem(await request(app).get('/human-evaluations/a').set('Prefer', 'failed'), 400, /not key=value/);
  });
});

describe('CORS', () => {
  it('is on by default: preflight answered, answers readable by any origin', async () => {
    const preflight = await request(app)
      .options('/evaluations')
      .set('Origin', 'http://localhost:5173')
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'content-type, prefer')
      .expect(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
    expect(preflight.headers['access-control-allow-methods']).toContain('POST');
    expect(preflight.headers['access-control-allow-headers']).toBe('content-type, prefer');
    const get = await request(app).get('/human-evaluations/a').set('Origin', 'http://localhost:5173').expect(200);
    expect(get.headers['access-control-allow-origin']).toBe('*');
    expect(get.headers['access-control-expose-headers']).toContain('Retry-After');
  });

  it('lets a browser app read the challenge of a 401 (WWW-Authenticate exposed)', async () => {
    const denied = await request(app)
      .get('/human-evaluations/a')
      .set('Origin', 'http://localhost:5173')
      .set('Prefer', 'code=401')
      .expect(401);
    expect(denied.headers['www-authenticate']).toBe('Bearer');
    const exposed = (denied.headers['access-control-expose-headers'] as string).split(/,\s*/);
    expect(exposed).toContain('WWW-Authenticate');
  });

  it('can be limited to listed origins', async () => {
    const limited = createMockApp({ cors: ['http://localhost:3000'] });
    const ok = await request(limited).get('/human-evaluations/a').set('Origin', 'http://localhost:3000').expect(200);
    expect(ok.headers['access-control-allow-origin']).toBe('http://localhost:3000');
    expect(ok.headers.vary).toBe('Origin');
    const other = await request(limited).get('/human-evaluations/a').set('Origin', 'http://evil.example').expect(200);
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
    const refused = await request(limited)
      .options('/evaluations')
      .set('Origin', 'http://evil.example')
      .set('Access-Control-Request-Method', 'POST');
    expectProblem(refused, 403, /origin is not allowed/);
  });

  it('can be turned off', async () => {
    const off = createMockApp({ cors: false });
    const res = await request(off)
      .options('/evaluations')
      .set('Origin', 'http://localhost:5173')
      .set('Access-Control-Request-Method', 'POST');
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });
});
