/**
 * How much of a resource an instance shows:
 * - minimal: required fields only (plus what coherence needs, such as the Error of a failed status);
 * - full: every optional field;
 * - mixed: each optional field present at random (the default);
 * - edge: empty arrays, unicode and very long strings, error Results, boundary integers.
 */
export const profiles = ['minimal', 'full', 'mixed', 'edge'] as const;
export type Profile = (typeof profiles)[number];

export function isProfile(value: string): value is Profile {
  return (profiles as readonly string[]).includes(value);
}
