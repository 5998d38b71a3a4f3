import { describe, expect, it } from 'vitest';
import { pointerOf, pointerTokens, valueAt } from '../../schemas/validators/json-pointer.js';

describe('JSON pointers (RFC 6901)', () => {
  it.each([
    [[], ''],
    [['rate_limit', 'batch_size'], '/rate_limit/batch_size'],
    [['a/b', 'm~n', ''], '/a~1b/m~0n/'],
    [['~1'], '/~01'],
  ])('%j <-> %s', (path, pointer) => {
    expect(pointerOf(path)).toBe(pointer);
    expect(pointerTokens(pointer)).toEqual(path);
  });

  it('finds the value a pointer names, and undefined off the path', () => {
    const doc = { 'a/b': [{ c: null }], n: 1 };
    expect(valueAt(doc, '/a~1b/0/c')).toBeNull();
    expect(valueAt(doc, '')).toBe(doc);
    expect(valueAt(doc, '/n/deeper')).toBeUndefined();
    expect(valueAt(doc, '/missing')).toBeUndefined();
  });
});
