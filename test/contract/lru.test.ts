import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LruCache } from '../../http/lru.js';
import { runs } from '../properties/runs.js';

describe('LruCache', () => {
  it('evicts the least recently used entry beyond its capacity; a read counts as a use', () => {
    const cache = new LruCache<string, number>(2);
    cache.set('a', 1);
    cache.set('b', 2);
    expect(cache.get('a')).toBe(1);
    cache.set('c', 3);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe(1);
    expect(cache.get('c')).toBe(3);
    cache.set('c', 30);
    cache.set('d', 4);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('c')).toBe(30);
  });

  it('answers every read as a list of entries, most recent last, cut to the capacity, would', () => {
    // Few keys, so reads hit, writes overwrite and evictions come often, in every order.
    const operation = fc.oneof(
      fc.record({ read: fc.nat(12) }),
      fc.record({ write: fc.nat(12), value: fc.integer({ min: 1 }) }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6 }), fc.array(operation, { maxLength: 200 }), (capacity, operations) => {
        const cache = new LruCache<number, number>(capacity);
        let model: Array<[number, number]> = [];
        for (const step of operations) {
          if ('read' in step) {
            const found = model.find(([key]) => key === step.read);
            if (found) model = [...model.filter(([key]) => key !== step.read), found];
            expect(cache.get(step.read)).toBe(found?.[1]);
          } else {
            const written: [number, number] = [step.write, step.value];
            model = [...model.filter(([key]) => key !== step.write), written].slice(-capacity);
            cache.set(step.write, step.value);
          }
        }
        for (let key = 0; key <= 12; key++) expect(cache.get(key)).toBe(model.find(([known]) => known === key)?.[1]);
      }),
      runs(300),
    );
  });
});
