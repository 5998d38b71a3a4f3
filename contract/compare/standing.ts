import { counted } from '../../http/counted.js';
import type { MockDifference } from './differences.js';

/**
 * Where each difference stands, for every report alike: the mock's drift (what a frontend built on it would meet and
 * nobody accepted), accepted by the team, or the deployment's own spec violation (no mock should imitate it unasked).
 */
export interface Standing {
  drift: MockDifference[];
  accepted: MockDifference[];
  violations: MockDifference[];
}

export function standingOf(differences: readonly MockDifference[]): Standing {
  return {
    drift: differences.filter((difference) => !difference.deploymentBreaksSpec && !difference.accepted),
    accepted: differences.filter((difference) => !difference.deploymentBreaksSpec && difference.accepted),
    violations: differences.filter((difference) => difference.deploymentBreaksSpec),
  };
}

/** The differences that count against the mock: what --fail-on-drift fails on, what the closest settings minimise. */
export function driftOf(differences: readonly MockDifference[]): MockDifference[] {
  return standingOf(differences).drift;
}

/**
 * The counts in words, each kind apart, the others only when there are any: `3 differences, 1 accepted, 2 the
 * deployment's own spec violations`.
 */
export function standingCounts(differences: readonly MockDifference[]): string {
  const { drift, accepted, violations } = standingOf(differences);
  return [
    counted(drift.length, 'difference'),
    ...(accepted.length > 0 ? [`${accepted.length} accepted`] : []),
    ...(violations.length > 0 ? [`${counted(violations.length, "the deployment's own spec violation")}`] : []),
  ].join(', ');
}
