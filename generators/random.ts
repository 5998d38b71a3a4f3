import type { Randomizer } from '@faker-js/faker';

/**
 * A seedable sfc32 generator. Each generator set owns one and reseeds it at the start of every top-level call,
 * so an instance depends on its seed alone: no clock, no Math.random, no state shared between sets.
 */
export class SeededRandom implements Randomizer {
  private a = 0;
  private b = 0;
  private c = 0;
  private d = 0;

  constructor(seed = 0) {
    this.seed(seed);
  }

  seed(seed: number | number[]): void {
    const words = Array.isArray(seed) ? seed : [seed];
    let h = 0x9e3779b9;
    for (const word of words) h = Math.imul(h ^ (word >>> 0), 0x85ebca6b) ^ (h >>> 13);
    // splitmix-style scrambling so that neighbouring seeds start far apart
    this.a = splitmix(h);
    this.b = splitmix(this.a ^ 0x6a09e667);
    this.c = splitmix(this.b ^ 0xbb67ae85);
    this.d = 1;
    for (let i = 0; i < 12; i++) this.next();
  }

  // An arrow property: faker calls next() detached from the object.
  next = (): number => {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
}

function splitmix(value: number): number {
  let z = (value + 0x9e3779b9) | 0;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return (z ^ (z >>> 16)) >>> 0;
}

/** A 32-bit seed from any mix of numbers and strings (cyrb53's mixing, truncated): ids and counters become seeds. */
export function seedFrom(...parts: Array<string | number>): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (const part of parts) {
    const text = typeof part === 'number' ? `#${part}` : `$${part}`;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      h1 = Math.imul(h1 ^ code, 2654435761);
      h2 = Math.imul(h2 ^ code, 1597334677);
    }
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (h1 ^ h2) >>> 0;
}
