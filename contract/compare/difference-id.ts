import { stableId } from '../../http/stable-id.js';
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
  return stableId([operation, aspect, deployment, mock, ...(deploymentBreaksSpec ? ['breaks the spec'] : [])]);
}
