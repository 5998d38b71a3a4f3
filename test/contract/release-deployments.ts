import { createHash } from 'node:crypto';
import { generators } from '../../generators/index.js';
import { schemas } from '../../schemas/index.js';
import { fillNulls, visitObjects } from '../../mock/core/nullable.js';
import { json, startConformingServer, type Answer, type Behaviour, type Context } from './conforming-server.js';

/**
 * Deployments that answer as the service's releases did (shared/spec/domain-notes.md), built on the conforming
 * server and rewritten, for `contract --compare-mock`: the state a create answers, the id style of the ids the service
 * makes, the date form, explicit nulls (pydantic serializes every field), and pydantic 1 or 2 error bodies.
 */
export interface Release {
  createdState: 'EVALUATION_STARTED' | 'EVALUATION_INITIALIZED';
  idStyle: 'object-id' | 'uuid-v7';
  dates: 'Z' | 'naive' | 'spaced';
  nulls: boolean;
  pydantic: 1 | 2;
}

export const releases = {
  '0.17': { createdState: 'EVALUATION_STARTED', idStyle: 'object-id', dates: 'naive', nulls: true, pydantic: 1 },
  '0.18': { createdState: 'EVALUATION_INITIALIZED', idStyle: 'object-id', dates: 'naive', nulls: true, pydantic: 1 },
  '0.19': { createdState: 'EVALUATION_INITIALIZED', idStyle: 'uuid-v7', dates: 'spaced', nulls: true, pydantic: 2 },
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

function dated(value: string, form: Release['dates']): string {
  const match = /^(\d{4}-\d\d-\d\d)T(\d\d:\d\d:\d\d)(?:\.(\d+))?/.exec(value);
  if (!match || form === 'Z') return value;
  const [, day, time, fraction = ''] = match;
  // The ObjectId releases kept milliseconds (MongoDB), the later ones microseconds.
  if (form === 'naive') return `${day}T${time}.${fraction.slice(0, 3).padEnd(3, '0')}000`;
  return `${day} ${time}.${fraction.slice(0, 6).padEnd(6, '0')}+00:00`;
}

/** Every id the service made (not one the request or the path named) in the release's style, every date in its form. */
function restyle(value: unknown, release: Release, kept: ReadonlySet<string>, key = ''): unknown {
  if (typeof value === 'string') {
    if ((key === 'id' || /_ids?$/.test(key)) && !kept.has(value)) return styled(value, release.idStyle);
    return /_at$/.test(key) ? dated(value, release.dates) : value;
  }
  if (Array.isArray(value)) return value.map((item) => restyle(item, release, kept, key));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, restyle(item, release, kept, name)]));
  return value;
}

/** pydantic 2's entries: a type of its own, the value sent as `input`, and a documentation link. */
function pydantic2(answer: Answer): Answer {
  const body = JSON.parse(answer.body) as { detail: Array<{ loc: unknown[]; msg: string; type: string }> };
  return json(422, {
    detail: body.detail.map(({ loc, msg, type }) => ({
      type: type.replace(/^(value|type)_error\./, ''),
      loc,
      msg,
      input: null,
      url: 'https://errors.pydantic.dev/2.7/v/missing',
    })),
  });
}

function idsOf(context: Context): Set<string> {
  const request = context.request ?? {};
  const named = [request.app_id, request.testset_id, request.variant_ids, request.evaluators_configs, context.id];
  return new Set(named.flat().filter((id): id is string => typeof id === 'string'));
}

/** The answer as the release would give it; `then` rewrites further (one behaviour apart, for a test). */
function releaseRewrite(release: Release): NonNullable<Behaviour['rewrite']> {
  return (answer, context) => {
    if (answer.status === 422 && release.pydantic === 2) return pydantic2(answer);
    if (answer.status !== 200) return answer;
    const body = restyle(JSON.parse(answer.body), release, idsOf(context));
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
