import type { ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import { json, type Answer, type Behaviour, type Context } from './conforming-server.js';
import { generators } from '../../generators/index.js';
import { providerKeyNames } from '../../generators/vocabulary.js';
import { idShape } from '../../contract/run/id-shapes.js';
import type { Severity } from '../../contract/index.js';

/**
 * The bank: mutations of the conforming server, each breaking one rule the way real deployments do, with the
 * checks that must catch it; and conforming variants, each departing from the reference in a way the spec allows,
 * with the warnings (if any) they must raise and nothing else.
 */

export interface Expected {
  id: string;
  severity: Severity;
}

export interface BankEntry {
  name: string;
  behaviour: Behaviour;
  /** The failed checks the run must show: exactly these. */
  expect: Expected[];
  headers?: Record<string, string>;
  /** The id passed as --human-evaluation-id, when the entry's deployment has ids of its own shape. */
  humanEvaluationId?: string;
  /** --timeout, for the entries whose fault is a wait: short, so the run is quick; the others keep a loose one. */
  timeoutMs?: number;
}

type Json = Record<string, unknown>;
type Rewrite = NonNullable<Behaviour['rewrite']>;

const error = (id: string): Expected => ({ id, severity: 'error' });
const warning = (id: string): Expected => ({ id, severity: 'warning' });

/** A create request of two variants and two evaluator configs, so per-variant and per-config rules can break. */
export const bankCreateBody: Json = {
  ...generators.CreateEvaluationRequest('bank', { profile: 'full' }),
  variant_ids: ['6637c0a25368ef07b03a64b1', '6637c0a25368ef07b03a64b2'],
  evaluators_configs: ['6637c0a25368ef07b03a64d1', '6637c0a25368ef07b03a64d2'],
};

function isSuccess(answer: Answer): boolean {
  return answer.status >= 200 && answer.status < 300;
}

/** Rewrites each Evaluation of a successful create answer. */
function evaluations(change: (record: Json, context: Context) => Json): Rewrite {
  return (answer, context) => {
    if (context.route !== 'create' || !isSuccess(answer)) return answer;
    const records = JSON.parse(answer.body) as Json[];
    return { ...answer, body: JSON.stringify(records.map((record) => change(record, context))) };
  };
}

/** Rewrites the HumanEvaluation of a successful fetch answer. */
export function humanEvaluation(change: (record: Json) => Json): Rewrite {
  return (answer, context) =>
    context.route === 'fetch' && isSuccess(answer)
      ? { ...answer, body: JSON.stringify(change(JSON.parse(answer.body) as Json)) }
      : answer;
}

/**
 * Puts `text` wherever the reports show server text: a fetched id and an undocumented field's name, each created
 * Evaluation's app_id, and (in `invalid`, the answer to an invalid create request) an error body.
 */
export function serverText(text: string, invalid: Answer): Rewrite {
  const fetched = humanEvaluation((record) => ({ ...record, id: text, [text]: 1 }));
  const created = evaluations((record) => ({ ...record, app_id: text }));
  return (answer, context) =>
    context.route === 'create' && answer.status === 422 ? invalid : created(fetched(answer, context), context);
}

function rename(record: Json, from: string, to: string): Json {
  const { [from]: value, ...rest } = record;
  return { ...rest, [to]: value };
}

function without(record: Json, field: string): Json {
  const { [field]: _removed, ...rest } = record;
  return rest;
}

/** The instant of an RFC 3339 UTC string, written in the +05:30 offset. */
function inIndia(value: unknown): string {
  const shifted = new Date(Date.parse(String(value)) + 330 * 60_000).toISOString().slice(0, 23);
  return `${shifted}+05:30`;
}

/** An evaluator_config nested `depth` levels deep, as text: JSON.stringify itself recurses. */
function nestedConfig(depth: number): string {
  return `${'{"settings_values":'.repeat(depth)}{}${'}'.repeat(depth)}`;
}

/** An array nested `depth` levels deep, as text. */
function nestedArray(depth: number): string {
  return `${'['.repeat(depth)}${']'.repeat(depth)}`;
}

/**
 * A finished run whose success answers of one route carry `nested` (a value thousands of levels deep, written as
 * text: JSON.stringify itself recurses) where `mark` put the string "DEEP".
 */
function nestedDeep(route: Context['route'], mark: Behaviour['rewrite'], nested: string): Behaviour {
  return {
    evaluationState: 'EVALUATION_FINISHED',
    rewrite: mark,
    send: (res, answer, context) => {
      if (context.route !== route || !isSuccess(answer)) return false;
      res.writeHead(200, { 'content-type': 'application/json' }).end(answer.body.replaceAll('"DEEP"', nested));
      return true;
    },
  };
}

/** Each aggregated result of a created Evaluation changed. */
function aggregatedResults(change: (result: Json) => Json): Behaviour['rewrite'] {
  return evaluations((record) => ({
    ...record,
    aggregated_results: (record.aggregated_results as Json[]).map(change),
  }));
}

/**
 * The answer written by hand on the raw socket: HTTP/1.0, no Content-Length, the body ends when the connection does.
 */
function closeDelimited(res: ServerResponse, answer: Answer): true {
  const head = [
    `HTTP/1.0 ${answer.status} X`,
    ...Object.entries(answer.headers).map(([name, value]) => `${name}: ${value}`),
  ].join('\r\n');
  res.socket?.end(`${head}\r\n\r\n${answer.body}`);
  return true;
}

/**
 * A fetch success sent labelled `Content-Encoding: gzip` with the bytes `encode` makes of its body, always or only when
 * the request's Accept-Encoding lists gzip (as compression middleware does).
 */
export function gzipLabelledFetch(encode: (body: string) => Buffer | string, when: 'always' | 'when asked'): Behaviour {
  return {
    send: (res, answer, context) => {
      if (context.route !== 'fetch' || !isSuccess(answer)) return false;
      if (when === 'when asked' && !/gzip/.test(res.req.headers['accept-encoding'] ?? '')) return false;
      res.writeHead(answer.status, { ...answer.headers, 'content-encoding': 'gzip' }).end(encode(answer.body));
      return true;
    },
  };
}

export const mutations: BankEntry[] = [
  {
    name: 'Evaluation spells variant_revision_ids as variants_revision_ids (the HumanEvaluation name)',
    behaviour: { rewrite: evaluations((record) => rename(record, 'variant_revision_ids', 'variants_revision_ids')) },
    expect: [error('create.body.schema')],
  },
  {
    name: 'HumanEvaluation spells variants_revision_ids as variant_revision_ids (the Evaluation name)',
    behaviour: {
      rewrite: humanEvaluation((record) => rename(record, 'variants_revision_ids', 'variant_revision_ids')),
    },
    expect: [error('fetch.body.schema')],
  },
  {
    name: 'date-time with a space instead of T (2024-07-10 12:34:56.123456+00:00)',
    behaviour: {
      rewrite: humanEvaluation((record) => ({ ...record, created_at: '2024-07-10 12:34:56.123456+00:00' })),
    },
    expect: [error('fetch.body.schema')],
  },
  {
    name: 'naive date-time without an offset (2024-05-20T10:11:12.123000)',
    behaviour: {
      rewrite: evaluations((record) => ({
        ...record,
        created_at: '2024-05-20T10:11:12.123000',
        updated_at: '2024-05-20T10:11:12.123000',
      })),
    },
    expect: [error('create.body.schema')],
  },
  {
    name: 'null inside variant_ids',
    behaviour: {
      rewrite: humanEvaluation((record) => ({
        ...record,
        variant_ids: [null, ...(record.variant_ids as unknown[]).slice(1)],
      })),
    },
    expect: [error('fetch.body.schema')],
  },
  {
    name: 'revisions as integers instead of strings',
    behaviour: {
      rewrite: evaluations((record) => ({ ...record, revisions: (record.revisions as string[]).map(Number) })),
    },
    expect: [error('create.body.schema')],
  },
  {
    name: 'Evaluation.status as a bare string instead of a Result object',
    behaviour: { rewrite: evaluations((record) => ({ ...record, status: (record.status as Json).value })) },
    expect: [error('create.body.schema')],
  },
  {
    name: 'required user_username missing from HumanEvaluation',
    behaviour: { rewrite: humanEvaluation((record) => without(record, 'user_username')) },
    expect: [error('fetch.body.schema')],
  },
  {
    name: 'required field sent as null (HumanEvaluation.testset_name: null)',
    behaviour: { rewrite: humanEvaluation((record) => ({ ...record, testset_name: null })) },
    expect: [error('fetch.body.schema')],
  },
  {
    name: 'optional field present with another type (average_latency as a bare number of seconds)',
    behaviour: { rewrite: evaluations((record) => ({ ...record, average_latency: 1.234 })) },
    expect: [error('create.body.schema')],
  },
  {
    name: 'create answers one Evaluation object instead of an array',
    behaviour: {
      rewrite: (answer, context) =>
        context.route === 'create' && isSuccess(answer)
          ? { ...answer, body: JSON.stringify((JSON.parse(answer.body) as unknown[])[0]) }
          : answer,
    },
    expect: [error('create.body.schema')],
  },
  {
    name: "nested: an aggregated result's Error object without its required message",
    behaviour: {
      evaluationState: 'EVALUATION_FINISHED',
      rewrite: evaluations((record) => ({
        ...record,
        aggregated_results: (record.aggregated_results as Json[]).map((result) => ({
          ...result,
          result: { type: 'error', error: { stacktrace: 'Traceback ...' } },
        })),
      })),
    },
    expect: [error('create.body.schema')],
  },
  {
    name: 'lm_providers_keys echoed in each created Evaluation',
    behaviour: {
      rewrite: evaluations((record, context) => ({ ...record, lm_providers_keys: context.request?.lm_providers_keys })),
    },
    expect: [error('create.secrets.echo')],
  },
  {
    name: 'lm_providers_keys echoed in 422 errors (pydantic v2 "input")',
    behaviour: {
      rewrite: (answer, context) =>
        context.route === 'create' && answer.status === 422 && context.request
          ? json(422, { detail: [{ type: 'missing', loc: ['body'], msg: 'Field required', input: context.request }] })
          : answer,
    },
    expect: [error('create.secrets.echo')],
  },
  {
    name: 'a provider key echoed in a response header',
    behaviour: {
      rewrite: (answer, context) => {
        const keys = context.request?.lm_providers_keys;
        const first = keys && typeof keys === 'object' ? Object.values(keys as Json)[0] : undefined;
        return typeof first === 'string'
          ? { ...answer, headers: { ...answer.headers, 'x-provider-key': first } }
          : answer;
      },
    },
    expect: [error('create.secrets.echo')],
  },
  {
    name: '500 instead of 422 for an invalid create request',
    behaviour: {
      rewrite: (answer, context) =>
        context.route === 'create' && answer.status === 422 ? json(500, { detail: 'Internal Server Error' }) : answer,
    },
    expect: [error('create.status.5xx')],
  },
  {
    name: 'plain-text 500 for an unknown id',
    behaviour: {
      rewrite: (answer, context) =>
        context.route === 'fetch' && answer.status === 404
          ? { status: 500, headers: { 'content-type': 'text/plain' }, body: 'Internal Server Error' }
          : answer,
    },
    expect: [error('fetch.status.5xx')],
  },
  {
    name: '503 for a valid create request',
    behaviour: {
      rewrite: (answer, context) =>
        context.route === 'create' && context.valid ? json(503, { detail: 'Service Unavailable' }) : answer,
    },
    expect: [error('create.status.5xx')],
  },
  {
    name: 'an HTML page instead of JSON (a proxy error page served with 200)',
    behaviour: {
      rewrite: (answer, context) =>
        context.route === 'fetch' && isSuccess(answer)
          ? {
              status: 200,
              headers: { 'content-type': 'text/html' },
              body: '<!doctype html><html><body>Welcome</body></html>',
            }
          : answer,
    },
    expect: [error('fetch.body.json'), warning('fetch.content-type')],
  },
  {
    name: 'invalid JSON served complete (a body cut by the application)',
    behaviour: {
      rewrite: (answer, context) =>
        context.route === 'create' && isSuccess(answer)
          ? { ...answer, body: answer.body.slice(0, answer.body.length / 2) }
          : answer,
    },
    expect: [error('create.body.json')],
  },
  {
    name: 'hangs past the timeout on create',
    behaviour: { raw: (req) => req.method === 'POST' },
    timeoutMs: 1_500,
    expect: [error('create.transport')],
  },
  {
    name: 'truncated body (Content-Length longer than what is sent, then the socket closes)',
    behaviour: {
      send: (res, answer, context) => {
        if (context.route !== 'fetch' || !isSuccess(answer)) return false;
        res.writeHead(200, {
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(answer.body)),
        });
        res.write(answer.body.slice(0, 40));
        setTimeout(() => res.socket?.destroy(), 20);
        return true;
      },
    },
    expect: [error('fetch.transport')],
  },
  {
    name: 'connection dropped on every POST',
    behaviour: {
      raw: (req) => {
        if (req.method !== 'POST') return false;
        req.socket.destroy();
        return true;
      },
    },
    expect: [error('create.transport')],
  },
  {
    name: 'a huge body (5 MiB) for a fetch',
    behaviour: {
      send: (res, answer, context) => {
        if (context.route !== 'fetch' || !isSuccess(answer)) return false;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(`${answer.body.slice(0, -1)},"padding":"${'x'.repeat(5 * 1024 * 1024)}"}`);
        return true;
      },
    },
    expect: [error('fetch.transport')],
  },
  {
    name: 'a redirect to another origin',
    behaviour: {
      raw: (req, res) => {
        if (req.method !== 'GET') return false;
        res.writeHead(302, { location: `http://localhost:9${req.url ?? '/'}` }).end();
        return true;
      },
    },
    expect: [error('fetch.transport')],
  },
  {
    name: 'an answer that is not HTTP at all (a raw socket service on the port)',
    behaviour: {
      raw: (req) => {
        if (req.method !== 'GET') return false;
        req.socket.end('SSH-2.0-OpenSSH_9.6\r\n');
        return true;
      },
    },
    expect: [error('fetch.transport')],
  },
  {
    name: 'a body drip-fed slower than the timeout',
    timeoutMs: 1_500,
    behaviour: {
      send: (res, answer, context) => {
        if (context.route !== 'fetch' || !isSuccess(answer)) return false;
        res.writeHead(200, { 'content-type': 'application/json' });
        const drip = setInterval(() => (res.destroyed ? clearInterval(drip) : res.write(' ')), 50);
        return true;
      },
    },
    expect: [error('fetch.transport')],
  },
  {
    name: 'required aggregated_results sent as null before the run computes it',
    behaviour: { rewrite: evaluations((record) => ({ ...record, aggregated_results: null })) },
    expect: [error('create.body.schema')],
  },
  {
    name: 'GET answers the record of another id',
    behaviour: { rewrite: humanEvaluation((record) => ({ ...record, id: '6637c0a25368ef07b03a64ff' })) },
    expect: [warning('fetch.body.id')],
  },
  {
    name: 'variant arrays of unequal length (a name missing)',
    behaviour: {
      rewrite: humanEvaluation((record) => ({ ...record, variant_names: (record.variant_names as string[]).slice(1) })),
    },
    expect: [warning('fetch.body.variants')],
  },
  {
    name: 'created_at later than updated_at, hidden by offsets (strings sort the other way)',
    behaviour: {
      rewrite: humanEvaluation((record) => ({
        ...record,
        created_at: '2024-05-20T10:30:00.000001+00:00',
        updated_at: '2024-05-20T12:00:00.000000+02:00',
      })),
    },
    expect: [warning('fetch.body.timestamps')],
  },
  {
    name: 'aggregated results for an evaluator config that was not requested',
    behaviour: {
      evaluationState: 'EVALUATION_FINISHED',
      rewrite: evaluations((record) => ({
        ...record,
        aggregated_results: [
          ...(record.aggregated_results as Json[]),
          generators.AggregatedResult('extra', { evaluatorConfigId: '6637c0a25368ef07b03a64dd', failed: false }),
        ],
      })),
    },
    expect: [warning('create.body.evaluator-configs')],
  },
  {
    name: 'one Evaluation for two requested variants',
    behaviour: {
      rewrite: (answer, context) =>
        context.route === 'create' && isSuccess(answer)
          ? { ...answer, body: JSON.stringify((JSON.parse(answer.body) as unknown[]).slice(0, 1)) }
          : answer,
    },
    expect: [warning('create.body.per-variant')],
  },
  {
    name: 'the Evaluations of one create answer sharing one id',
    behaviour: { rewrite: evaluations((record) => ({ ...record, id: '6637c0a25368ef07b03a64f0' })) },
    expect: [warning('create.body.distinct-ids')],
  },
  {
    name: 'Evaluations name another app_id than requested',
    behaviour: { rewrite: evaluations((record) => ({ ...record, app_id: '6637c0a25368ef07b03a6400' })) },
    expect: [warning('create.body.request-ids')],
  },
  {
    name: 'invalid create requests accepted with 200',
    behaviour: {
      rewrite: (answer, context) => (context.route === 'create' && answer.status === 422 ? json(200, []) : answer),
    },
    expect: [warning('create.invalid.rejected')],
  },
  {
    name: 'an unknown id answered with 200 (records invented for any id)',
    behaviour: {
      knownIds: [],
      rewrite: (answer, context) =>
        context.route === 'fetch' ? json(200, generators.HumanEvaluation('any', { id: context.id })) : answer,
    },
    expect: [warning('fetch.unknown-id.rejected')],
  },
  {
    name: 'optional fields sent as null (testset_name, average_cost)',
    behaviour: { rewrite: evaluations((record) => ({ ...record, testset_name: null, average_cost: null })) },
    expect: [warning('create.body.nulls')],
  },
  {
    name: 'optional fields sent as null everywhere, settings_values of finished results too',
    behaviour: {
      evaluationState: 'EVALUATION_FINISHED',
      rewrite: evaluations((record) => ({
        ...record,
        testset_name: null,
        aggregated_results: (record.aggregated_results as Json[]).map((result) => ({
          ...result,
          evaluator_config: { ...(result.evaluator_config as Json), settings_values: null },
        })),
      })),
    },
    expect: [warning('create.body.nulls')],
  },
  {
    name: 'an evaluator_config with a numeric evaluator_key and settings_values null',
    behaviour: {
      evaluationState: 'EVALUATION_FINISHED',
      rewrite: evaluations((record) => ({
        ...record,
        aggregated_results: (record.aggregated_results as Json[]).map((result) => ({
          ...result,
          evaluator_config: { ...(result.evaluator_config as Json), evaluator_key: 42, settings_values: null },
        })),
      })),
    },
    expect: [warning('create.body.evaluator-config.known')],
  },
  {
    name: 'success served as text/plain',
    behaviour: {
      rewrite: (answer, context) =>
        context.route === 'fetch' && isSuccess(answer)
          ? { ...answer, headers: { 'content-type': 'text/plain' } }
          : answer,
    },
    expect: [warning('fetch.content-type')],
  },
  {
    name: 'a release that takes only its own provider key names (422 for MY_LLM_PROVIDER_KEY)',
    behaviour: {
      rewrite: (answer, context) => {
        const keys = context.request?.lm_providers_keys;
        const names = keys && typeof keys === 'object' ? Object.keys(keys) : [];
        const unknown = names.filter((name) => !(providerKeyNames as readonly string[]).includes(name));
        return context.route === 'create' && context.valid && unknown.length > 0
          ? json(422, {
              detail: [
                {
                  loc: ['body', 'lm_providers_keys', unknown[0]],
                  msg: 'unexpected value; permitted: OPENAI_API_KEY, ...',
                  type: 'value_error.const',
                },
              ],
            })
          : answer;
      },
    },
    expect: [error('create.provider-keys.accepted')],
  },
  {
    name: 'a UUID deployment that invents a record for any unknown UUID, while it rejects ObjectIds with 422',
    behaviour: {
      knownIds: [],
      rewrite: (answer, context) => {
        if (context.route !== 'fetch') return answer;
        if (idShape(context.id ?? '') !== 'UUID')
          return json(422, {
            detail: [{ loc: ['path', 'evaluation_id'], msg: 'value is not a valid uuid', type: 'type_error.uuid' }],
          });
        return json(200, generators.HumanEvaluation('any', { id: context.id }));
      },
    },
    humanEvaluationId: '01890a5d-ac96-774b-bcce-b302099a8057',
    expect: [warning('fetch.unknown-id.rejected')],
  },
  {
    name: 'a success body labelled Content-Encoding: gzip that is plain JSON (not compressed)',
    behaviour: gzipLabelledFetch((body) => body, 'always'),
    expect: [error('fetch.transport')],
  },
  {
    // A compression middleware behind another that gzips too: only a client asking for gzip, as browsers do, meets it.
    name: 'gzip applied twice to an answer the client asked gzip for, labelled once',
    behaviour: gzipLabelledFetch((body) => gzipSync(gzipSync(body)), 'when asked'),
    expect: [error('fetch.body.json')],
  },
  {
    name: 'a success body that is not UTF-8 (Latin-1 bytes in a name)',
    behaviour: {
      send: (res, answer, context) => {
        if (context.route !== 'fetch' || !isSuccess(answer)) return false;
        const record = JSON.parse(answer.body) as Json;
        const [before, after] = JSON.stringify({ ...record, user_username: 'JOS_' }).split('JOS_') as [string, string];
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(Buffer.concat([Buffer.from(`${before}JOS`), Buffer.from([0xc9]), Buffer.from(after)]));
        return true;
      },
    },
    expect: [error('fetch.body.json')],
  },
  {
    name: 'a success body starting with a UTF-8 byte order mark',
    behaviour: {
      rewrite: (answer, context) =>
        context.route === 'fetch' && isSuccess(answer) ? { ...answer, body: `\uFEFF${answer.body}` } : answer,
    },
    expect: [warning('fetch.body.bom')],
  },
  {
    name: 'the id of a HumanEvaluation nested 5,000 levels deep (a typed position)',
    behaviour: nestedDeep(
      'fetch',
      humanEvaluation((record) => ({ ...record, id: 'DEEP' })),
      nestedArray(5_000),
    ),
    expect: [error('fetch.body.json')],
  },
  {
    name: 'the create answer itself nested 5,000 levels deep',
    behaviour: nestedDeep(
      'create',
      (answer, context) => (context.route === 'create' ? { ...answer, body: '"DEEP"' } : answer),
      nestedArray(5_000),
    ),
    expect: [error('create.body.json')],
  },
  {
    name:
      'a 500 after which the server drops the kept-alive connection without Connection: close ' +
      "(uvicorn's unhandled error)",
    behaviour: (() => {
      const failed = new WeakSet<object>();
      return {
        // The next request on that connection meets the close before any answer, as it does in the race.
        raw: (req) => (failed.has(req.socket) ? (req.socket.destroy(), true) : false),
        send: (res, answer, context) => {
          if (context.route !== 'create' || answer.status !== 422) return false;
          failed.add(res.socket as object);
          res.writeHead(500, { 'content-type': 'text/plain' }).end('Internal Server Error');
          return true;
        },
      };
    })(),
    expect: [error('create.status.5xx')],
  },
  {
    name: 'evaluator_config as a bare id string',
    behaviour: {
      evaluationState: 'EVALUATION_FINISHED',
      rewrite: evaluations((record) => ({
        ...record,
        aggregated_results: (record.aggregated_results as Json[]).map((result) => ({
          ...result,
          evaluator_config: (result.evaluator_config as Json).id,
        })),
      })),
    },
    expect: [warning('create.body.evaluator-config.known')],
  },
];

export const conforming: BankEntry[] = [
  { name: 'the reference itself', behaviour: {}, expect: [] },
  {
    name: 'undocumented extra fields, top level and nested',
    behaviour: {
      rewrite: (answer) => {
        if (!isSuccess(answer)) return answer;
        const body = JSON.parse(answer.body) as Json | Json[];
        const extend = (record: Json): Json => ({
          ...record,
          evaluation_kind: 'auto',
          status: typeof record.status === 'object' ? { ...(record.status as Json), progress: 0 } : record.status,
        });
        return { ...answer, body: JSON.stringify(Array.isArray(body) ? body.map(extend) : extend(body)) };
      },
    },
    expect: [],
  },
  { name: 'served under a base path /api', behaviour: { basePath: '/api' }, expect: [] },
  {
    name: 'an evaluator_config (an undocumented alternative) nested 5,000 levels deep',
    behaviour: nestedDeep(
      'create',
      aggregatedResults((result) => ({ ...result, evaluator_config: 'DEEP' })),
      nestedConfig(5_000),
    ),
    expect: [warning('create.body.depth'), warning('create.body.evaluator-config.known')],
  },
  {
    name: 'settings_values nested 5,000 levels deep',
    behaviour: nestedDeep(
      'create',
      aggregatedResults((result) => ({
        ...result,
        evaluator_config: { ...(result.evaluator_config as Json), settings_values: 'DEEP' },
      })),
      nestedConfig(5_000),
    ),
    expect: [warning('create.body.depth')],
  },
  {
    name: 'a Result.value nested 5,000 levels deep',
    behaviour: nestedDeep(
      'create',
      aggregatedResults((result) => ({ ...result, result: { type: 'number', value: 'DEEP' } })),
      nestedArray(5_000),
    ),
    expect: [warning('create.body.depth')],
  },
  {
    name: 'an undocumented extra field nested 5,000 levels deep',
    behaviour: nestedDeep(
      'fetch',
      humanEvaluation((record) => ({ ...record, evaluation_trace: 'DEEP' })),
      nestedArray(5_000),
    ),
    expect: [warning('fetch.body.depth')],
  },
  {
    name: 'an Authorization header required',
    behaviour: { auth: { name: 'Authorization', value: 'Bearer bank-token' } },
    headers: { Authorization: 'Bearer bank-token' },
    expect: [],
  },
  {
    name: 'date-times with a +05:30 offset',
    behaviour: {
      rewrite: (answer, context) => {
        if (!isSuccess(answer) || context.route === 'other') return answer;
        const body = JSON.parse(answer.body) as Json | Json[];
        const shift = (record: Json): Json => ({
          ...record,
          created_at: inIndia(record.created_at),
          updated_at: inIndia(record.updated_at),
        });
        return { ...answer, body: JSON.stringify(Array.isArray(body) ? body.map(shift) : shift(body)) };
      },
    },
    expect: [],
  },
  {
    name: '201 instead of 200 for create',
    behaviour: {
      rewrite: (answer, context) =>
        context.route === 'create' && isSuccess(answer) ? { ...answer, status: 201 } : answer,
    },
    expect: [],
  },
  {
    name: 'finished Evaluations with aggregated results for the requested configs',
    behaviour: { evaluationState: 'EVALUATION_FINISHED' },
    expect: [],
  },
  {
    name: 'evaluator_config {} (a deleted config)',
    behaviour: {
      evaluationState: 'EVALUATION_FINISHED',
      rewrite: evaluations((record) => ({
        ...record,
        aggregated_results: (record.aggregated_results as Json[]).map((result) => ({
          ...result,
          evaluator_config: {},
        })),
      })),
    },
    expect: [warning('create.body.evaluator-config.known')],
  },
  {
    name: 'a same-origin redirect (307 to the trailing-slash path, as FastAPI does)',
    behaviour: {
      raw: (req, res) => {
        if (req.url?.endsWith('/')) return false;
        res.writeHead(307, { location: `${req.url ?? ''}/` }).end();
        return true;
      },
    },
    expect: [],
  },
  {
    name:
      'kept-alive connections closed as the next request arrives, without Connection: close ' +
      "(uvicorn's keep-alive timer)",
    behaviour: (() => {
      const served = new WeakSet<object>();
      return {
        raw: (req) => {
          if (served.has(req.socket)) return (req.socket.destroy(), true);
          served.add(req.socket);
          return false;
        },
      };
    })(),
    expect: [],
  },
  {
    name: 'a FIN right after every complete answer',
    behaviour: {
      send: (res, answer) => {
        res.writeHead(answer.status, answer.headers).end(answer.body, () => res.socket?.end());
        return true;
      },
    },
    expect: [],
  },
  {
    // RFC 9110 §12.5.3: a request without Accept-Encoding accepts any coding, and gateways compress JSON unasked.
    name: 'a gateway that gzips every answer, asked or not',
    behaviour: {
      send: (res, answer) => {
        res.writeHead(answer.status, { ...answer.headers, 'content-encoding': 'gzip' }).end(gzipSync(answer.body));
        return true;
      },
    },
    expect: [],
  },
  {
    name: 'HTTP/1.0 answers with close-delimited bodies (no Content-Length)',
    behaviour: { send: closeDelimited },
    expect: [],
  },
  {
    name: 'application/json; charset=utf-8 and 400 with a plain-text error body',
    behaviour: {
      rewrite: (answer) =>
        isSuccess(answer)
          ? { ...answer, headers: { 'content-type': 'application/json; charset=utf-8' } }
          : { status: 400, headers: { 'content-type': 'text/plain' }, body: 'Bad Request' },
    },
    expect: [],
  },
];

/** A mutation's behaviour, by the start of its name. */
export function mutation(name: string): Behaviour {
  const entry = mutations.find((candidate) => candidate.name.startsWith(name));
  if (!entry) throw new Error(`no mutation ${name}`);
  return entry.behaviour;
}
