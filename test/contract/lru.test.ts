import { describe, expect, it } from 'vitest';
import { LruCache } from '../../http/lru.js';

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
});
