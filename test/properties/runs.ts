import fc from 'fast-check';

/**
 * How properties run. `npm test` runs each a bounded number of times from one fixed seed, so a red run replays
 * exactly; fast-check prints the seed and path of a failure, and `EVALKIT_PROPERTY_SEED` runs from another seed.
 * `npm run test:properties` multiplies every count by `EVALKIT_PROPERTY_RUNS` (10 there) for a deeper search.
 */
const propertySeed = Number(process.env.EVALKIT_PROPERTY_SEED ?? 20261127);
const scale = Math.max(1, Number(process.env.EVALKIT_PROPERTY_RUNS ?? 1) || 1);

/** A count of draws or requests in `npm test`, scaled as properties are (`npm run test:properties`: 10 times). */
export function scaled(count: number): number {
  return Math.round(count * scale);
}

/** fast-check's parameters for a property that runs `runs` times in `npm test`. */
export function runs(count: number): fc.Parameters<unknown> {
  return { seed: propertySeed, numRuns: Math.round(count * scale), endOnFailure: false };
}

/** A test's time limit for a property of `count` runs, scaled with it: it catches a hang, never slowness. */
export function limitFor(count: number, msPerRun = 200): number {
  return 60_000 + count * scale * msPerRun * 5;
}
