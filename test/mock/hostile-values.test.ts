import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createMockApp, createMockCore } from '../../mock/index.js';
import { createRequest } from './helpers.js';

const app = createMockApp();
const valid = JSON.stringify(createRequest());

function post(text: string) {
  return request(app)
    .post('/evaluations')
    .set('Content-Type', 'application/json')
    .serialize((data: unknown) => data as string)
    .send(text);
}

/** The valid create request with the text of rate_limit.batch_size (an integer) replaced. */
const batchSize = (number: string) => valid.replace('"batch_size":10', `"batch_size":${number}`);

describe('JSON values a parser lets through', () => {
  it('refuses a string or key holding a lone surrogate with a 400 naming where, and serves paired ones', async () => {
    const lone = await post(valid.replace('"app_id":"app-1"', '"app_id":"a\\ud800"'));
    expect(lone.status).toBe(400);
    expect(lone.body.detail).toBe(
      'The request body has a string with an unpaired surrogate (a \\ud800-\\udfff escape without its pair) at /app_id',
    );
    const trailing = await post(valid.replace('"app_id":"app-1"', '"app_id":"\\udc00x"'));
    expect(trailing.status).toBe(400);
    const inList = await post(valid.replace(/"variant_ids":\["/, '"variant_ids":["\\udfff","'));
    expect(inList.body.detail).toMatch(/at \/variant_ids\/0$/);
    const key = await post(valid.replace('"lm_providers_keys":{', '"lm_providers_keys":{"\\ud800":"x",'));
    expect(key.status).toBe(400);
    expect(key.body.detail).toMatch(/a key with an unpaired surrogate at \/lm_providers_keys/);
    const paired = await post(valid.replace('"app_id":"app-1"', '"app_id":"\\ud83d\\ude00"'));
    expect(paired.status).toBe(200);
  });

  it('lets the last of duplicate keys win, as Python json (and so FastAPI) does', async () => {
    const numberLast = await post(valid.replace('"app_id":"app-1"', '"app_id":"a","app_id":1'));
    expect(numberLast.status).toBe(422);
    expect(numberLast.body.detail).toEqual([
      expect.objectContaining({ type: 'string_type', loc: ['body', 'app_id'], input: 1 }),
    ]);
    expect((await post(valid.replace('"app_id":"app-1"', '"app_id":1,"app_id":"a"'))).status).toBe(200);
  });

  it('refuses a number past a 64-bit float with a 400 naming where, wherever it is', async () => {
    for (const number of ['1e400', '-1e400', '9'.repeat(400)]) {
      const res = await post(batchSize(number));
      expect(res.status, number).toBe(400);
      expect(res.body.detail).toBe(
        'The request body has a number out of range (past a 64-bit float) at /rate_limit/batch_size',
      );
    }
    // An undocumented extra field, which the schema leaves open, is no way around it.
    const extra = await post(valid.replace('{', '{"extra":[1e999],'));
    expect(extra.body.detail).toMatch(/out of range .* at \/extra\/0$/);
    expect((await post('1e400')).status).toBe(400);
  });

  it('accepts what pydantic does for an integer: -0, 1.0, 1e2, 2^53+1 (rounded), 1e-400 (zero); not 1.5', async () => {
    for (const number of ['-0', '1.0', '1e2', '9007199254740993', '1e-400', '1'.repeat(300)])
      expect((await post(batchSize(number))).status, number).toBe(200);
    const fraction = await post(batchSize('1.5'));
    expect(fraction.status).toBe(422);
    expect(fraction.body.detail[0]).toMatchObject({
      loc: ['body', 'rate_limit', 'batch_size'],
      type: 'int_from_float',
    });
  });
});

describe('odd ids in the path', () => {
  const get = (path: string) => request(app).get(`/human-evaluations/${path}`);

  it('refuses percent-encodings that are not UTF-8: overlong forms, lone surrogates, past U+10FFFF', async () => {
    for (const path of ['%C0%AF', '%E0%80%AF', '%ED%A0%80', '%ED%BF%BF', '%F4%90%80%80', '%FF', '%E2%80'])
      expect((await get(path)).body.detail, path).toBe('The request path is not valid percent-encoded UTF-8');
  });

  it('serves valid Unicode as an opaque id, JSON-escaped where it must be: NUL, RTL override, U+FFFF', async () => {
    for (const [path, id] of [
      ['%00', '\u0000'],
      ['%E2%80%AEevil', '\u202eevil'],
      ['%EF%BF%BF', '\uffff'],
      ['%F0%9F%98%80', '\u{1f600}'],
    ] as const) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      expect(res.body.id).toBe(id);
    }
    expect((await get('%00')).text).toContain('"id":"\\u0000"');
  });

  it('answers an id over 1,024 characters with a 422, however it is spelt', async () => {
    for (const path of ['a'.repeat(1025), '%E2%80%AE'.repeat(1025), '%F0%9F%98%80'.repeat(513)]) {
      const res = await get(path);
      expect(res.status).toBe(422);
      expect(res.body.detail[0].loc).toEqual(['path', 'evaluation_id']);
    }
  });
});

describe('hostile Prefer values, straight to the core (no 16 KiB header bound in front of it)', () => {
  const core = createMockCore();
  const answerTo = async (prefer: string) =>
    core.handle({ method: 'GET', url: '/human-evaluations/a', headers: { prefer } });

  it('answers 100 KB runs of separators, quotes and spaces with a 200 or a 400 naming the problem', async () => {
    const hostile = [
      ';'.repeat(100_000),
      '='.repeat(100_000),
      '"'.repeat(100_000),
      ','.repeat(100_000),
      `${' '.repeat(100_000)}x`,
      `seed="${' '.repeat(100_000)}`,
      `state=${'"'.repeat(100_000)}`,
      'a=;'.repeat(34_000),
      `seed=${';='.repeat(50_000)}`,
      `${'state=failed, '.repeat(7_000)}latency=1`,
    ];
    for (const prefer of hostile) {
      const answer = await answerTo(prefer);
      expect([200, 400]).toContain(answer.status);
      if (answer.status === 400)
        expect(JSON.parse(Buffer.from(answer.body ?? []).toString()).detail).toBeTypeOf('string');
      expect(answer.body?.length ?? 0).toBeLessThan(1_000);
    }
  });
});
