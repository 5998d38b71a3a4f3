import { setFlagsFromString } from 'node:v8';

/**
 * How far V8 lets the old generation grow past what the last full collection kept, in percent. V8 picks up to 300 %
 * when collections are cheap, which they are here (about 15 MB live): under sustained load the heap then swings up
 * to four times the live set and RSS follows it. 100 % (double) keeps RSS after 40k mixed requests near 120 MB
 * instead of 150-156 MB, for no CPU cost the benchmark could tell from noise (docs/mock.md, Performance).
 */
const heapGrowingPercent = 100;

/**
 * Bounds heap growth in the mock's own process (`evalkit mock`), never in a process that merely imports the mock.
 * V8 reads this flag each time it sets the next collection's limit, so setting it after start-up takes effect; on a
 * V8 that ignored it the mock would run as before, with more memory.
 */
export function boundHeapGrowth(): void {
  setFlagsFromString(`--heap-growing-percent=${heapGrowingPercent}`);
}
