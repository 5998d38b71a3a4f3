import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pathOf, walkJson, type JsonKey, type WalkStep } from '../../http/json-walk.js';
import { providerKeyValues, redactProviderKeys } from '../../http/placeholders.js';
import { runs } from '../properties/runs.js';

/** One value met, as the walk reports it: the value itself (by identity), its key, depth and spelt path. */
interface Met {
  value: unknown;
  key: JsonKey | undefined;
  depth: number;
  path: string[];
}

/** What the walk meets, with the visitor's answer for the n-th value (`skip` or `stop`) if any. */
function walked(root: unknown, answer?: { at: number; step: WalkStep }): Met[] {
  const met: Met[] = [];
  walkJson(root, (value, key, holder, depth) => {
    met.push({ value, key, depth, path: pathOf(holder, key) });
    return met.length - 1 === answer?.at ? answer.step : undefined;
  });
  return met;
}

/** The oracle: document order by recursion (only on values fast-check draws, a few levels deep). */
function expected(value: unknown, key: JsonKey | undefined = undefined, path: string[] = []): Met[] {
  const here: Met = { value, key, depth: path.length, path };
  if (value === null || typeof value !== 'object') return [here];
  const members: Array<[JsonKey, unknown]> = Array.isArray(value)
    ? value.map((item, index) => [index, item])
    : Object.entries(value);
  return [here, ...members.flatMap(([name, item]) => expected(item, name, [...path, String(name)]))];
}

/** A value nested `levels` deep by `{"a": …}` or `[…]`, built without recursion, around `inner`. */
function nested(levels: number, inner: unknown, kind: 'object' | 'array'): unknown {
  let value = inner;
  for (let level = 0; level < levels; level++) value = kind === 'array' ? [value] : { a: value };
  return value;
}

describe('walkJson: the one iterative walk over a parsed JSON value', () => {
  it('meets every value once in document order, with its key, index, depth and path', () => {
    const body = { a: [1, { b: 'x' }], c: null, 'd/e': {} };
    expect(walked(body).map(({ key, depth, path }) => [key, depth, path.join('/')])).toEqual([
      [undefined, 0, ''],
      ['a', 1, 'a'],
      [0, 2, 'a/0'],
      [1, 2, 'a/1'],
      ['b', 3, 'a/1/b'],
      ['c', 1, 'c'],
      ['d/e', 1, 'd/e'],
    ]);
  });

  it('skips the members of a value a visitor skips, and ends where it stops', () => {
    const body = { a: { x: 1 }, b: [2, 3], c: 4 };
    expect(walked(body, { at: 1, step: 'skip' }).map(({ key }) => key)).toEqual([undefined, 'a', 'b', 0, 1, 'c']);
    expect(walked(body, { at: 4, step: 'stop' }).map(({ key }) => key)).toEqual([undefined, 'a', 'x', 'b', 0]);
    expect(walked(body, { at: 0, step: 'skip' })).toHaveLength(1);
  });

  it('goes on into the value it met when a visitor replaces it in its holder', () => {
    const inner = { x: 1 };
    const body: Record<string, unknown> = { a: inner, b: 2 };
    const keys: Array<JsonKey | undefined> = [];
    walkJson(body, (value, key, holder) => {
      keys.push(key);
      if (value === inner && holder) (holder.value as Record<string, unknown>).a = 'cut';
    });
    expect(keys).toEqual([undefined, 'a', 'x', 'b']);
    expect(body).toEqual({ a: 'cut', b: 2 });
  });

  it('walks 100,000 levels of objects and of arrays without exhausting the stack', () => {
    for (const kind of ['object', 'array'] as const) {
      let count = 0;
      let deepest: string[] = [];
      walkJson(nested(100_000, 'end', kind), (value, key, holder, depth) => {
        count++;
        if (value === 'end') deepest = [String(depth), ...pathOf(holder, key)];
      });
      expect(count).toBe(100_001);
      expect(deepest).toHaveLength(100_001);
      expect(deepest[0]).toBe('100000');
      expect(deepest.slice(1).every((token) => token === (kind === 'array' ? '0' : 'a'))).toBe(true);
    }
  });

  it('property: any JSON value is met as the recursive oracle meets it, skips and stops honoured', () => {
    fc.assert(
      fc.property(
        fc.jsonValue(),
        fc.option(fc.tuple(fc.nat(), fc.constantFrom<WalkStep>('skip', 'stop')), { nil: undefined }),
        (value, choice) => {
          const all = expected(value);
          if (choice === undefined) {
            expect(walked(value)).toEqual(all);
            return;
          }
          const at = choice[0] % all.length;
          const step = choice[1];
          const chosen = all[at] as Met;
          // A skipped value's members are the entries after it whose path starts with its own.
          const under = (met: Met) =>
            met.path.length > chosen.path.length && chosen.path.every((token, index) => met.path[index] === token);
          const wanted =
            step === 'stop' ? all.slice(0, at + 1) : all.filter((met, index) => index <= at || !under(met));
          expect(walked(value, { at, step })).toEqual(wanted);
        },
      ),
      runs(300),
    );
  });

  it('property: any JSON value nested up to 100,000 levels: every value once, depths and paths right', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 100_000 }),
        fc.constantFrom<'object' | 'array'>('object', 'array'),
        fc.jsonValue({ maxDepth: 3 }),
        (levels, kind, inner) => {
          const innerMet: Met[] = [];
          let met = 0;
          let chainRight = true;
          let innerRootPath: string[] = [];
          walkJson(nested(levels, inner, kind), (value, key, holder, depth) => {
            if (met++ < levels) {
              chainRight &&= depth === met - 1 && (depth === 0 || key === (kind === 'array' ? 0 : 'a'));
              return;
            }
            if (depth === levels) innerRootPath = pathOf(holder, key);
            const path = pathOf(holder, key).slice(levels);
            innerMet.push({ value, key: depth === levels ? undefined : key, depth: depth - levels, path });
          });
          expect(chainRight).toBe(true);
          expect(innerRootPath).toEqual(Array<string>(levels).fill(kind === 'array' ? '0' : 'a'));
          expect(innerMet).toEqual(expected(inner));
        },
      ),
      runs(10),
    );
  });
});

describe('provider keys, read by the walk', () => {
  it('collects the strings under lm_providers_keys in document order, at most the limit', () => {
    const body = { LM_PROVIDERS_KEYS: { openai: 'k1', nested: ['k2', { x: 'k3' }] }, z: { lm_providers_keys: 'k4' } };
    expect(providerKeyValues(body)).toEqual(['k1', 'k2', 'k3', 'k4']);
    expect(providerKeyValues(body, 2)).toEqual(['k1', 'k2']);
    expect(providerKeyValues(body, 0)).toEqual([]);
    // A spread of 200,000 values into push() was an engine error ("Maximum call stack size exceeded").
    expect(providerKeyValues({ lm_providers_keys: Array<string>(200_000).fill('k') })).toHaveLength(1_000);
  });

  it('redacts each member under lm_providers_keys in place, at any depth, and walks no further into it', () => {
    const body = { a: [{ Lm_Providers_Keys: { openai: { deep: 'k' } } }], lm_providers_keys: ['k'], b: 'kept' };
    redactProviderKeys(body);
    expect(body).toEqual({
      a: [{ Lm_Providers_Keys: { openai: '<PROVIDER_KEY>' } }],
      lm_providers_keys: '<PROVIDER_KEY>',
      b: 'kept',
    });
  });
});
