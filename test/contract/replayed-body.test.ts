import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { containsSecret } from '../../http/redaction.js';
import { Canaries } from '../../contract/run/canaries.js';
import { createWithDeploymentIds } from '../../contract/run/deployment-records.js';
import { replayedBody } from '../../contract/run/replay.js';
import { runs } from '../properties/runs.js';

/** What `contract --replay` sends of a recorded body, whoever wrote the recording and however. */

const canaries = new Canaries('replayed-body');

/** A JSON value with the key planted under `lm_providers_keys` (any case) somewhere in it, or at the top. */
const planted = (key: string) =>
  fc
    .tuple(
      fc.jsonValue({ maxDepth: 3 }),
      fc.array(fc.constantFrom('a', 'items', '0'), { maxLength: 4 }),
      fc.constantFrom('lm_providers_keys', 'LM_Providers_Keys'),
      fc.boolean(),
    )
    .map(([value, path, member, asMap]) => {
      const keys = asMap ? { OPENAI_API_KEY: key } : key;
      let node: Record<string, unknown> = { [member]: keys };
      for (const step of path.reverse()) node = { [step]: node };
      return typeof value === 'object' && value !== null && !Array.isArray(value) ? { ...value, ...node } : node;
    });

describe('replayedBody: no provider key of the app is ever sent again', () => {
  it('property: an object body, or its JSON text (a BOM, spacing), leaves with no key; other text is withheld', () => {
    const forms = ['object', 'text', 'text with a BOM', 'spaced text', 'text and noise'] as const;
    const cases = fc
      .string({ minLength: 4, maxLength: 20 })
      .map((tail) => `sk-zq${tail}`)
      .chain((key) => fc.tuple(fc.constant(key), planted(key), fc.constantFrom(...forms)));
    fc.assert(
      fc.property(cases, ([key, body, form]) => {
        const text = JSON.stringify(body, null, form === 'spaced text' ? 2 : undefined);
        const recorded = {
          object: body,
          text,
          'text with a BOM': `\uFEFF${text}`,
          'spaced text': text,
          'text and noise': `${text},`,
        }[form];
        const replayed = replayedBody(canaries, recorded);
        if (form === 'text and noise') expect(replayed).toEqual({ withheld: expect.stringMatching(/not JSON/) });
        else {
          if (!('body' in replayed)) throw new Error(`withheld: ${replayed.withheld}`);
          expect(containsSecret(JSON.stringify(replayed.body), [key])).toBe(false);
        }
      }),
      runs(200),
    );
  });

  it('top-level keys become canaries, under their names, whether the body was an object or its text', () => {
    const body = { app_id: 'a', lm_providers_keys: { OPENAI_API_KEY: 'sk-in-clear-1234' } };
    for (const recorded of [body, JSON.stringify(body)])
      expect(replayedBody(canaries, recorded)).toEqual({
        body: { app_id: 'a', lm_providers_keys: { OPENAI_API_KEY: expect.stringMatching(/^evalkit-canary-/) } },
      });
    expect(body.lm_providers_keys.OPENAI_API_KEY).toBe('sk-in-clear-1234');
  });
});

describe("createWithDeploymentIds: the deployment's ids in a recorded create, the rest of it kept", () => {
  const references = ['app_id', 'testset_id', 'variant_ids', 'evaluators_configs'];
  const id = fc.stringMatching(/^[0-9a-f]{24}$/);
  const recordedValue = fc.oneof(
    id,
    fc.array(fc.oneof(id, fc.jsonValue({ maxDepth: 1 })), { maxLength: 5 }),
    fc.jsonValue({ maxDepth: 2 }),
  );
  const body = fc.dictionary(
    fc.constantFrom(...references, 'rate_limit', 'correct_answer_column', '__proto__', 'x'),
    recordedValue,
  );
  const given = fc.record({
    app_id: id,
    testset_id: id,
    variant_ids: fc.array(id, { minLength: 1, maxLength: 3 }),
    evaluators_configs: fc.oneof(fc.array(id, { maxLength: 3 }), fc.constant('not an array')),
  });

  it('property: same fields, types and counts; each recorded id string a given id; all else as recorded', () => {
    fc.assert(
      fc.property(body, given, (recorded, ids) => {
        const { body: sent, replaced } = createWithDeploymentIds(recorded, ids);
        expect(Object.keys(sent)).toEqual(Object.keys(recorded));
        for (const [field, value] of Object.entries(recorded)) {
          const out = (sent as Record<string, unknown>)[field];
          const pool = ([] as unknown[])
            .concat((ids as Record<string, unknown>)[field] ?? [])
            .filter((v) => typeof v === 'string');
          if (!references.includes(field) || pool.length === 0) {
            expect(out).toEqual(value);
            continue;
          }
          expect(Array.isArray(out)).toBe(Array.isArray(value));
          expect(typeof out).toBe(typeof value);
          if (Array.isArray(value)) {
            expect((out as unknown[]).length).toBe(value.length);
            value.forEach((entry, index) =>
              typeof entry === 'string' && Array.isArray((ids as Record<string, unknown>)[field])
                ? expect(pool).toContain((out as unknown[])[index])
                : expect((out as unknown[])[index]).toEqual(entry),
            );
          } else if (typeof value === 'string' && typeof (ids as Record<string, unknown>)[field] === 'string')
            expect(out).toBe((ids as Record<string, unknown>)[field]);
          else expect(out).toEqual(value);
          expect(replaced.includes(field)).toBe(JSON.stringify(out) !== JSON.stringify(value));
        }
      }),
      runs(300),
    );
  });
});
