import { gzipSync } from 'node:zlib';
import { compressionBomb } from '../../bench/attack-bodies.js';
import { generators } from '../../generators/index.js';
import { invalidCases } from '../../generators/invalid.js';
import { evaluationStates } from '../../generators/vocabulary.js';
import { profiles } from '../../generators/profile.js';
import { scenarioCodes } from '../../mock/index.js';
import { createRequest, sdkCreateRequest, secret } from '../mock/helpers.js';

/** One request of the parity corpus; a body is sent as these exact bytes, with the given headers (Content-Type too). */
export interface CorpusRequest {
  name: string;
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
}

const json = { 'Content-Type': 'application/json' };
const ids = [
  '6637c0a25368ef07b03a64cd',
  '0190a4c2-7b1e-7c3a-9f00-1a2b3c4d5e6f',
  ...Array.from({ length: 40 }, (_, index) => `id-${index}`),
  encodeURIComponent('ünïcødé 评估'),
  encodeURIComponent('../../etc/passwd'),
  'a'.repeat(1024),
  'a'.repeat(1025),
  '%E0%A4%A',
  // Issue 18: overlong UTF-8, lone surrogates, past U+10FFFF, NUL, an RTL override, 1,025 characters of them.
  '%C0%AF',
  '%ED%A0%80',
  '%F4%90%80%80',
  '%00',
  '%E2%80%AEevil',
  '%E2%80%AE'.repeat(1025),
];

/**
 * At least 200 requests: GETs of many ids, every scenario key and code for both operations, valid create requests,
 * each one-rule breakage of a create request, and the 400/404/405/413/415/422 cases. Paths are relative to the base.
 */
export function parityCorpus(): CorpusRequest[] {
  const corpus: CorpusRequest[] = [];
  const get = (name: string, id: string, headers?: Record<string, string>) =>
    corpus.push({ name, method: 'GET', path: `/human-evaluations/${id}`, headers });
  const post = (name: string, body: string | Uint8Array, headers: Record<string, string> = json) =>
    corpus.push({ name, method: 'POST', path: '/evaluations', headers, body });
  for (const id of ids) get(`GET ${id.slice(0, 30)}`, id);
  const preferences = [
    ...scenarioCodes.map((code) => `code=${code}`),
    ...evaluationStates.map((state) => `state=${state}`),
    'state=failed',
    ...profiles.map((profile) => `profile=${profile}`),
    'nullable=true',
    'nullable=false',
    'seed=42',
    'latency=1',
    'latency=0-2',
    'state=failed, latency=1; profile=full',
    'stat=failed',
    'code=418',
    // The era switch: state on create, id style, the era's date forms; eraDates without an era is a 400.
    'era=0.17',
    'era=v0.19.2',
    'era=0.18, eraDates=true',
    'era=0.19, eraDates=true, nullable=true',
    'eraDates=true',
    'era=2024',
    // RFC 7240's own preferences pass by; a bare word that is none of them is a 400.
    'respond-async, return=minimal',
    'failed',
  ];
  for (const prefer of preferences) {
    get(`GET Prefer ${prefer}`, 'prefer-1', { Prefer: prefer });
    post(`POST Prefer ${prefer}`, JSON.stringify(createRequest()), { ...json, Prefer: prefer });
  }
  for (let seed = 0; seed < 30; seed++)
    post(`POST valid #${seed}`, JSON.stringify(generators.CreateEvaluationRequest(seed)));
  const invalid = invalidCases('CreateEvaluationRequest', createRequest());
  for (const broken of invalid) post(`POST invalid ${broken.rule}`, JSON.stringify(broken.body));
  post('POST invalid with Prefer code=503', JSON.stringify({ app_id: 1 }), { ...json, Prefer: 'code=503' });
  post('POST malformed JSON', `{"app_id": "a", "lm_providers_keys": {"OPENAI_API_KEY": ${secret}}}`);
  post('POST trailing comma', '{"app_id": "a",}');
  post('POST form body', 'app_id=a', { 'Content-Type': 'application/x-www-form-urlencoded' });
  post('POST text/plain', JSON.stringify(createRequest()), { 'Content-Type': 'text/plain' });
  post('POST latin1', JSON.stringify(createRequest()), { 'Content-Type': 'application/json; charset=latin1' });
  post('POST +json', JSON.stringify(createRequest()), { 'Content-Type': 'application/vnd.evalkit+json' });
  post('POST blank body', '   ');
  post('POST __proto__', '{"app_id":"a","rate_limit":{"__proto__":{"polluted":true},"batch_size":1}}');
  post('POST deep', `{"app_id": ${'['.repeat(100)}${']'.repeat(100)}}`);
  post(
    'POST 101 variants',
    JSON.stringify(createRequest({ variant_ids: Array.from({ length: 101 }, (_, index) => `v${index}`) })),
  );
  post('POST long id', JSON.stringify(createRequest({ app_id: 'x'.repeat(1025) })));
  post('POST over 1 MiB', JSON.stringify(createRequest({ correct_answer_column: 'x'.repeat(1024 * 1024) })));
  corpus.push({ name: 'POST no body', method: 'POST', path: '/evaluations' });
  // The limits of issue 10, which live in the core: an empty body is a 422 whatever its type, list and map sizes are
  // checked before schema validation, and a 422 lists at most 100 problems plus a count of the rest.
  post('POST empty body, text/plain', '', { 'Content-Type': 'text/plain' });
  post(
    'POST 500 numbers in variant_ids',
    JSON.stringify(createRequest({ variant_ids: Array.from({ length: 500 }, (_, index) => index) })),
  );
  const keys = Object.fromEntries(Array.from({ length: 101 }, (_, index) => [`PROVIDER_${index}`, 'sk-fake']));
  post("POST the SDK's null optional fields", JSON.stringify(sdkCreateRequest()));
  post('POST null optional fields, strictNulls', JSON.stringify(sdkCreateRequest()), {
    ...json,
    Prefer: 'strictNulls=true',
  });
  post('POST at a pinned moment', JSON.stringify(createRequest()), {
    ...json,
    Prefer: 'now=2025-12-31T23:59:59.999999Z',
  });
  post('POST 101 lm_providers_keys', JSON.stringify(createRequest({ lm_providers_keys: keys })));
  const numbers = Array.from({ length: 100 }, (_, index) => index);
  post('POST 200 wrong items', JSON.stringify(createRequest({ variant_ids: numbers, evaluators_configs: numbers })));
  for (const path of [
    '/',
    '/evaluation',
    '/human-evaluations',
    '/human-evaluations/',
    '/human-evaluations/a/b',
    '/EVALUATIONS',
  ]) {
    corpus.push({ name: `GET unknown ${path}`, method: 'GET', path });
  }
  for (const method of ['PUT', 'PATCH', 'DELETE']) {
    corpus.push({ name: `${method} fetch`, method, path: '/human-evaluations/abc', headers: json, body: '{}' });
    corpus.push({ name: `${method} create`, method, path: '/evaluations', headers: json, body: '{}' });
  }
  corpus.push({ name: 'GET create', method: 'GET', path: '/evaluations' });
  corpus.push({ name: 'HEAD fetch', method: 'HEAD', path: '/human-evaluations/abc' });
  corpus.push({ name: 'OPTIONS fetch', method: 'OPTIONS', path: '/human-evaluations/abc' });
  corpus.push({ name: 'OPTIONS create', method: 'OPTIONS', path: '/evaluations' });
  corpus.push({
    name: 'CORS preflight',
    method: 'OPTIONS',
    path: '/evaluations',
    headers: {
      Origin: 'http://localhost:5173',
      'Access-Control-Request-Method': 'POST',
      'Access-Control-Request-Headers': 'content-type, prefer',
    },
  });
  get('GET with Origin', 'abc', { Origin: 'http://localhost:5173' });
  hostileBodies(post);
  for (const prefer of [
    ';'.repeat(8_000),
    '"'.repeat(8_000),
    `seed=${';='.repeat(4_000)}`,
    'state=failed,'.repeat(600),
  ])
    get(`GET hostile Prefer ${prefer.slice(0, 12)}`, 'prefer-2', { Prefer: prefer });
  return corpus;
}

/**
 * Issue 18's bodies, which reach the core through both adapters: compression bombs and listed codings (br left out:
 * Node 20's Compression Streams have none, so evalkit/msw answers it 415 there), lone surrogates, duplicate keys,
 * numbers at the edges of a float.
 */
function hostileBodies(post: (name: string, body: string | Uint8Array, headers?: Record<string, string>) => void) {
  const valid = JSON.stringify(createRequest());
  const encoded = (encoding: string) => ({ ...json, 'Content-Encoding': encoding });
  for (const layers of [['gzip'], ['deflate'], ['deflate-raw'], ['gzip', 'gzip']] as const) {
    const bomb = compressionBomb(layers, 8 * 2 ** 20);
    post(`POST bomb ${layers.join(', ')}`, bomb.body, encoded(bomb.encoding));
  }
  post('POST gzip, gzip', gzipSync(gzipSync(valid)), encoded('gzip, gzip'));
  post('POST four codings', gzipSync(valid), encoded('gzip, gzip, gzip, gzip'));
  post('POST unknown coding', valid, encoded('compress'));
  post('POST empty coding', valid, encoded(''));
  post('POST lone surrogate', valid.replace('"app_id":"app-1"', '"app_id":"\\ud800"'));
  post('POST duplicate keys', valid.replace('"app_id":"app-1"', '"app_id":"a","app_id":1'));
  for (const number of ['1e400', '-0', '1.0', '9007199254740993', '1e-400', '9'.repeat(400), '1.5'])
    post(`POST batch_size ${number.slice(0, 20)}`, valid.replace('"batch_size":10', `"batch_size":${number}`));
}
