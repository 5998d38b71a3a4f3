import { FactoryError, show } from './factory-error.js';

/**
 * The moments a record can be made at and rendered faithfully, in microseconds: an id carries the time it was minted
 * (an ObjectId its seconds since 1970 in 32 bits, so before 2106-02-07) and what a record refers to predates it by
 * up to half a year, which must still be after 1970. Whole years, so the span is easy to state: 1971 to 2105.
 */
export const renderableMoments = {
  earliest: Date.UTC(1971, 0, 1) * 1000,
  latest: Date.UTC(2106, 0, 1) * 1000 - 1,
  text: 'from 1971-01-01T00:00:00Z to 2105-12-31T23:59:59.999999Z',
} as const;

export function isRenderable(micros: number): boolean {
  return Number.isSafeInteger(micros) && micros >= renderableMoments.earliest && micros <= renderableMoments.latest;
}

/** A FactoryError naming `caller`'s `option` when a moment given to it (microseconds) is one it cannot render. */
export function checkMoment(caller: string, option: string, micros: unknown): void {
  if (micros === undefined || (typeof micros === 'number' && isRenderable(micros))) return;
  throw new FactoryError(
    option,
    micros,
    `whole microseconds since the epoch, ${renderableMoments.text}`,
    `${caller}: ${option} cannot be ${show(micros)}`,
  );
}
