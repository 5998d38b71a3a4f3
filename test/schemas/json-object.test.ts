import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cloneJson } from '../../schemas/json-object.js';
import { runs } from '../properties/runs.js';

/** Every object and array inside a JSON value, the value itself included. */
function containers(value: unknown): object[] {
  if (typeof value !== 'object' || value === null) return [];
  return [value, ...Object.values(value).flatMap(containers)];
}

describe('cloneJson', () => {
  it('copies any JSON value (an own __proto__ key included) to an equal value that shares no object with it', () => {
    const withProto = fc.jsonValue().map((value) => JSON.parse(`{"__proto__": ${JSON.stringify(value)}}`) as unknown);
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), withProto), (value) => {
        const copy = cloneJson(value);
        expect(JSON.stringify(copy)).toBe(JSON.stringify(value));
        expect(copy).toStrictEqual(value);
        const originals = new Set(containers(value));
        expect(containers(copy).filter((node) => originals.has(node))).toEqual([]);
      }),
      runs(300),
    );
  });

  it('leaves the prototype of the copy alone whatever the keys', () => {
    const copy = cloneJson(JSON.parse('{"__proto__": {"polluted": true}}') as Record<string, unknown>);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.hasOwn(copy, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
