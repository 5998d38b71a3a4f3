import { createHash } from 'node:crypto';

/** Hex characters kept of the hash: short enough to read in a line, long enough that two never meet by chance. */
const idLength = 12;

/** A stable id as reports print it and an ignore file lists it (`--ignore FILE`: contract, proxy and diff alike). */
export const stableIdPattern = /^[0-9a-f]{12}$/;

/**
 * The stable id of a finding (a check's, a --compare-mock difference, a diff change): a hash of what it is, so the
 * same finding has the same id in every run and a team can accept it once by id. JSON keeps the parts apart whatever
 * they hold: a value with a newline cannot pose as two.
 */
export function stableId(parts: readonly unknown[]): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, idLength);
}
