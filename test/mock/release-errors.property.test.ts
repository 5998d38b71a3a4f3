import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { eraNames, newestRelease, serviceEras, type EraName } from '../../generators/vocabulary.js';
import { maxListedProblems } from '../../mock/core/limits.js';
import { maxEchoCharacters } from '../../mock/core/pydantic-words.js';
import { createMockCore, type MockAnswer } from '../../mock/index.js';
import { createRequest } from '../properties/arbitraries.js';
import { limitFor, runs } from '../properties/runs.js';

/**
 * Any create, valid or not, under any era (or none): the answer is the release's own shape (pydantic 1's entries
 * `{loc, msg, type[, ctx]}` or pydantic 2's `{type, loc, msg, input[, ctx][, url]}`, FastAPI's `json_invalid` under
 * both), stays within the mock's bound whatever the body holds, and never holds a provider key sent.
 */
const canary = fc
  .string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 8, maxLength: 8 })
  .map((hex) => `evalkit-canary-${hex}`);

/** Keys as clients send them: well-known names and any other, each value a canary that must never come back. */
const keys = fc.dictionary(fc.oneof(fc.constantFrom('OPENAI_API_KEY', 'GROQ_API_KEY'), fc.string()), canary, {
  maxKeys: 4,
});

/** A field path of the create request and what may be put there: any JSON value, or the field removed. */
const paths = [
  ['app_id'],
  ['variant_ids'],
  ['variant_ids', 0],
  ['evaluators_configs'],
  ['testset_id'],
  ['rate_limit'],
  ['rate_limit', 'batch_size'],
  ['rate_limit', 'retry_delay'],
  ['lm_providers_keys'],
  ['lm_providers_keys', 'OPENAI_API_KEY'],
  ['correct_answer_column'],
] as const;

const mutation = fc.record({
  path: fc.constantFrom(...paths),
  value: fc.oneof(
    fc.jsonValue({ maxDepth: 3 }),
    fc.constant(undefined),
    canary,
    fc.array(canary, { maxLength: 2 }),
    fc.constantFrom('10', ' 7 ', 1.5),
  ),
});

/** A body as sent: the request with up to three fields changed, its text maybe cut short, and a media type. */
const sent = fc
  .record({
    request: createRequest,
    keys,
    mutations: fc.array(mutation, { maxLength: 3 }),
    cut: fc.option(fc.nat(), { nil: undefined }),
    type: fc.constantFrom('application/json', 'text/plain', undefined, 'application/x-www-form-urlencoded'),
  })
  .map(({ request, keys: provided, mutations, cut, type }) => {
    const body: Record<string, any> = structuredClone({ ...request, lm_providers_keys: provided });
    for (const { path, value } of mutations) {
      let holder: any = body;
      for (const step of path.slice(0, -1))
        holder = holder !== null && typeof holder === 'object' ? holder[step] : undefined;
      if (holder === null || typeof holder !== 'object') continue;
      const last = path[path.length - 1] as string | number;
      if (value === undefined) delete holder[last];
      else holder[last] = value;
    }
    const text = JSON.stringify(body);
    return {
      text: cut === undefined ? text : text.slice(0, cut % (text.length + 1)),
      type,
      // Every canary under lm_providers_keys, however the mutations left it: each is a credential sent.
      secrets: [...JSON.stringify(body.lm_providers_keys ?? null).matchAll(/evalkit-canary-[0-9a-f]{8}/g)].map(
        ([found]) => found,
      ),
    };
  });

/**
 * What a success may weigh: at most 100 Evaluations (one per variant, the mock's list limit), each about 2 KiB of its
 * own plus the request's app and test set ids, twice over for JSON's escapes, and the request's own size again.
 */
function successBound(text: string, bytes: number): number {
  const request = JSON.parse(text) as { app_id?: unknown; testset_id?: unknown };
  const ids = [request.app_id, request.testset_id].reduce<number>(
    (sum, id) => sum + (typeof id === 'string' ? id.length : 0),
    0,
  );
  return 100 * (2048 + 2 * ids) + 4 * bytes;
}

const v1Keys = ['loc', 'msg', 'type'];
const v2Keys = ['type', 'loc', 'msg', 'input'];

/** The keys of an entry in their order, as the release writes them. */
function expectReleaseShape(entry: Record<string, unknown>, pydantic: 1 | 2): void {
  const keysInOrder = Object.keys(entry);
  // FastAPI builds its json_invalid entry itself, in pydantic 2's order, under both stacks.
  if (entry.type === 'json_invalid') {
    expect(keysInOrder).toEqual(['type', 'loc', 'msg', 'input', 'ctx']);
    return;
  }
  if (pydantic === 1) {
    expect(keysInOrder.slice(0, 3)).toEqual(v1Keys);
    expect(keysInOrder.slice(3).every((key) => key === 'ctx')).toBe(true);
    expect(String(entry.type)).toMatch(/^(type|value)_error\./);
  } else {
    expect(keysInOrder.slice(0, 4)).toEqual(v2Keys);
    expect(keysInOrder.slice(4).every((key) => key === 'ctx' || key === 'url')).toBe(true);
    expect(String(entry.type)).not.toMatch(/_error\./);
  }
  expect(Array.isArray(entry.loc) && entry.loc[0]).toMatch(/^(body|path)$/);
}

const cores = [undefined, ...eraNames].map((era) => ({
  era,
  core: createMockCore(era === undefined ? {} : { era }),
  pydantic: ((era === undefined ? newestRelease : serviceEras[era as EraName]).validation === 'pydantic1' ? 1 : 2) as
    1 | 2,
}));

const createRuns = 200;

describe('property: any create under any era is answered in that release’s shape, bounded, with no key echoed', () => {
  it(
    `${createRuns} bodies, valid or not, under no era and each era`,
    async () => {
      await fc.assert(
        fc.asyncProperty(sent, async ({ text, type, secrets }) => {
          const body = new TextEncoder().encode(text);
          const headers: Record<string, string> = { 'content-length': String(body.length) };
          if (type) headers['content-type'] = type;
          for (const { era, core, pydantic } of cores) {
            const answer: MockAnswer = await core.handle({ method: 'POST', url: '/evaluations', headers, body });
            const answerText = new TextDecoder().decode(answer.body);
            expect([200, 400, 422], `${era}: ${answerText.slice(0, 200)}`).toContain(answer.status);
            for (const secret of secrets) expect(answerText).not.toContain(secret);
            // Bounded: a refusal by the listed problems and the echo budget, whatever the body; a success by the
            // request (one Evaluation per variant, each carrying the request's ids).
            const bound =
              answer.status === 200
                ? successBound(text, body.length)
                : maxEchoCharacters + (maxListedProblems + 1) * 1024;
            expect(answerText.length).toBeLessThan(bound);
            if (answer.status !== 422) continue;
            const detail = (JSON.parse(answerText) as { detail: Array<Record<string, unknown>> }).detail;
            expect(detail.length).toBeLessThanOrEqual(maxListedProblems + 1);
            for (const entry of detail) expectReleaseShape(entry, pydantic);
          }
        }),
        runs(createRuns),
      );
    },
    limitFor(createRuns),
  );
});
