import { createHash } from 'node:crypto';
import { generators } from '../../generators/index.js';
import { schemas } from '../../schemas/index.js';
import { fillNulls, visitObjects } from '../../mock/core/nullable.js';
import { createMockCore, type MockAnswer } from '../../mock/index.js';
import { startConformingServer, type Behaviour, type Context } from './conforming-server.js';

/**
 * Deployments that answer as the service's releases did (shared/spec/domain-notes.md), built on the conforming
 * server and rewritten, for `contract --compare-mock`: the state a create answers, the id style of the ids the service
 * makes, the date form of each operation, explicit nulls (pydantic serializes every field), and the validation of
 * pydantic 1 or 2 (as the mock core under an era of that stack answers it, itself checked against the real service).
 */
export interface Release {
  createdState: 'EVALUATION_STARTED' | 'EVALUATION_INITIALIZED';
  idStyle: 'object-id' | 'uuid-v7';
  /** The date form of a fetched record and of a created one (as recorded from v0.17.5 and v0.24.4). */
  dates: { fetch: DateForm; create: DateForm };
  nulls: boolean;
  pydantic: 1 | 2;
  /** Validates as the reference server does (the spec's letter, any provider key name): a deployment that passes. */
  reference?: boolean;
}

type DateForm = 'Z' | 'naive' | 'offset' | 'spaced';

const mongo = { fetch: 'naive', create: 'offset' } as const;
const postgres = { fetch: 'spaced', create: 'Z' } as const;

export const releases = {
  '0.17': { createdState: 'EVALUATION_STARTED', idStyle: 'object-id', dates: mongo, nulls: true, pydantic: 1 },
  '0.18': { createdState: 'EVALUATION_INITIALIZED', idStyle: 'object-id', dates: mongo, nulls: true, pydantic: 1 },
  '0.19': { createdState: 'EVALUATION_INITIALIZED', idStyle: 'uuid-v7', dates: postgres, nulls: true, pydantic: 2 },
} as const satisfies Record<string, Release>;

/** Ids a release's own records carry, and ids of that style the run is given (they exist there). */
export const releaseIds = {
  'object-id': { record: '6637c0a25368ef07b03a64cd', app: '6637c0a25368ef07b03a64a1', other: '6637c0a25368ef07b03a64' },
  'uuid-v7': {
    record: '0190a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a2b',
    app: '0190a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a01',
    other: '0190a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a',
  },
} as const;

/** A create request whose ids are the release's style: what its frontend sends. */
export function releaseCreateBody(style: Release['idStyle']): Record<string, unknown> {
  const ids = releaseIds[style];
  const numbered = (n: number) => `${ids.other}${String(n).padStart(2, '0')}`;
  return {
    ...generators.CreateEvaluationRequest('release', { profile: 'full' }),
    app_id: ids.app,
    testset_id: numbered(10),
    variant_ids: [numbered(11)],
    evaluators_configs: [numbered(12), numbered(13)],
  };
}

/** An id the service made, in its style, derived from the id it replaces. */
function styled(id: string, style: Release['idStyle']): string {
  const hex = createHash('sha256').update(id).digest('hex');
  if (style === 'object-id') return hex.slice(0, 24);
  return `0190${hex.slice(0, 4)}-${hex.slice(4, 8)}-7${hex.slice(8, 11)}-8${hex.slice(11, 14)}-${hex.slice(14, 26)}`;
}

function dated(value: string, form: DateForm): string {
  const match = /^(\d{4}-\d\d-\d\d)T(\d\d:\d\d:\d\d)(?:\.(\d+))?/.exec(value);
  if (!match || form === 'Z') return value;
  const [, day, time, fraction = ''] = match;
  const micros = fraction.slice(0, 6).padEnd(6, '0');
  // The ObjectId releases kept milliseconds (MongoDB), the later ones microseconds.
  if (form === 'naive') return `${day}T${time}.${fraction.slice(0, 3).padEnd(3, '0')}000`;
  return form === 'offset' ? `${day}T${time}.${micros}+00:00` : `${day} ${time}.${micros}+00:00`;
}

/** Every id the service made (not one the request or the path named) in the release's style, every date in its form. */
function restyle(value: unknown, release: Release, form: DateForm, kept: ReadonlySet<string>, key = ''): unknown {
  if (typeof value === 'string') {
    if ((key === 'id' || /_ids?$/.test(key)) && !kept.has(value)) return styled(value, release.idStyle);
    return /_at$/.test(key) ? dated(value, form) : value;
  }
  if (Array.isArray(value)) return value.map((item) => restyle(item, release, form, kept, key));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value).map(([name, item]) => [name, restyle(item, release, form, kept, name)]),
    );
  return value;
}

function idsOf(context: Context): Set<string> {
  const request = context.request ?? {};
  const named = [request.app_id, request.testset_id, request.variant_ids, request.evaluators_configs, context.id];
  return new Set(named.flat().filter((id): id is string => typeof id === 'string'));
}

/**
 * What the release's validation stack makes of a create: the mock core under an era of that stack, whose answers are
 * checked against the real service's recorded ones (test/mock/real-service.test.ts). Undefined for any other request.
 */
const stacks = { 1: createMockCore({ era: '0.18', log: () => undefined }), 2: createMockCore({ era: '0.19' }) };

function releaseRead(release: Release, context: Context): MockAnswer | undefined {
  if (context.route !== 'create' || !context.sent || release.reference) return undefined;
  const body = new TextEncoder().encode(context.sent.text);
  const headers: Record<string, string> = { 'content-length': String(body.length) };
  if (context.sent.contentType) headers['content-type'] = context.sent.contentType;
  const answer = stacks[release.pydantic].handle({ method: 'POST', url: '/evaluations', headers, body });
  if (answer instanceof Promise) throw new Error('the mock core answers a create with a body in hand at once');
  return answer;
}

/** The answer as the release would give it; `then` rewrites further (one behaviour apart, for a test). */
function releaseRewrite(release: Release): NonNullable<Behaviour['rewrite']> {
  return (given, context) => {
    let answer = given;
    const read = releaseRead(release, context);
    // The release refuses what its stack refuses, and accepts what it coerces (the reference server is stricter).
    if (read && (read.status >= 400 || answer.status === 422))
      answer = {
        status: read.status,
        headers: { 'content-type': 'application/json' },
        body: new TextDecoder().decode(read.body),
      };
    const form = context.route === 'create' ? release.dates.create : release.dates.fetch;
    const body = restyle(JSON.parse(answer.body), release, form, idsOf(context));
    if (release.nulls)
      visitObjects(
        body,
        context.route === 'create' ? { type: 'array', items: schemas.Evaluation } : schemas.HumanEvaluation,
        fillNulls,
      );
    return { ...answer, body: JSON.stringify(body) };
  };
}

/** A deployment of that release; `behaviour` adds to it (its own rewrite runs after the release's). */
export function startRelease(release: Release, behaviour: Behaviour = {}) {
  const own = releaseRewrite(release);
  return startConformingServer({
    ...behaviour,
    evaluationState: release.createdState,
    knownIds: behaviour.knownIds ?? [releaseIds[release.idStyle].record],
    rewrite: (answer, context) => {
      const released = own(answer, context);
      return behaviour.rewrite ? behaviour.rewrite(released, context) : released;
    },
  });
}
