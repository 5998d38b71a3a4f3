import { createHash } from 'node:crypto';
import type { OperationKey } from '../../api/operations.js';

/** What makes a difference that difference, in every run and seed alike. */
export interface DifferenceIdentity {
  operation: OperationKey;
  aspect: string;
  deployment: string;
  mock: string;
  /** The deployment broke the spec on the requests it was seen on: apart from the same values where it did not. */
  deploymentBreaksSpec?: boolean;
}

/** Hex characters kept of the hash: short enough to read in a line, long enough that two never meet by chance. */
const idLength = 12;

/** A difference id as a report prints it and an ignore file lists it. */
export const differenceIdPattern = /^[0-9a-f]{12}$/;

/**
 * The stable id of a difference: a hash of what it is, never of where it was seen (request labels, counts, fields,
 * excerpts vary by seed) nor of what the checks made of it, so a team can accept it once by id in an ignore file.
 */
export function differenceId({
  operation,
  aspect,
  deployment,
  mock,
  deploymentBreaksSpec,
}: DifferenceIdentity): string {
  // JSON keeps the parts apart whatever they hold: a value with a newline cannot pose as two.
  const parts = [operation, aspect, deployment, mock, ...(deploymentBreaksSpec ? ['breaks the spec'] : [])];
  const text = JSON.stringify(parts);
  return createHash('sha256').update(text).digest('hex').slice(0, idLength);
}
