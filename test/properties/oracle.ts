import { expect } from 'vitest';
import { evaluationStateFrom, serviceEras, eraFrom } from '../../generators/vocabulary.js';
import { defaultCreatedState } from '../../mock/index.js';
import { validate, formatIssue } from '../../schemas/validators/index.js';
import type { SchemaName } from '../../schemas/index.js';

/** The service's own date forms that `eraDates` sends (outside the spec), back in RFC 3339. */
const naive = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6})$/;
const spaced = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d\.\d{6}\+00:00)$/;

/**
 * A body as the spec would have it, undoing only what a scenario documents as outside the spec: `nullable`'s explicit
 * nulls left out, `eraDates`' naive and spaced date-times written in RFC 3339. Anything else stays for the schema.
 */
function asSpecWouldHaveIt(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(asSpecWouldHaveIt);
  if (typeof value === 'string') {
    const naiveMatch = naive.exec(value);
    if (naiveMatch) return `${naiveMatch[1]}Z`;
    const spacedMatch = spaced.exec(value);
    return spacedMatch ? `${spacedMatch[1]}T${spacedMatch[2]}` : value;
  }
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, field]) => field !== null)
      .map(([key, field]) => [key, asSpecWouldHaveIt(field)]),
  );
}

/** Fails with the schema's issues when `data` (as the scenario sends it) is not valid against `name`. */
export function expectValidAs(name: SchemaName, data: unknown, outsideSpec: boolean): void {
  const result = validate(name, outsideSpec ? asSpecWouldHaveIt(data) : data);
  expect(result.issues.map(formatIssue), `${name} must be valid`).toEqual([]);
}

/** What a merged scenario (server's, then Prefer's, key by key) documents a request is answered with. */
export interface Expected {
  /** A status other than 200 asked for by `code`. */
  code: number | undefined;
  /** The state a created Evaluation is in. */
  createdState: string;
  /** Whether the body may hold the documented forms outside the spec. */
  outsideSpec: boolean;
  strictNulls: boolean;
  /** The provider key names the era's release accepts; undefined for any name (no era, as the spec has it). */
  providerKeyNames: readonly string[] | undefined;
}

export function expectedOf(scenario: Record<string, string | number | boolean>): Expected {
  const code = scenario.code === undefined || Number(scenario.code) === 200 ? undefined : Number(scenario.code);
  const era = typeof scenario.era === 'string' ? eraFrom(scenario.era) : undefined;
  const state = typeof scenario.state === 'string' ? evaluationStateFrom(scenario.state) : undefined;
  return {
    code,
    createdState: state ?? (era ? serviceEras[era].createdState : defaultCreatedState),
    outsideSpec: scenario.nullable === true || scenario.eraDates === true,
    strictNulls: scenario.strictNulls === true,
    providerKeyNames: era ? serviceEras[era].providerKeyNames : undefined,
  };
}

/** A Prefer header asking for these keys; every value quoted, so any separator inside it stays its own. */
export function preferOf(scenario: Record<string, string | number | boolean>): string {
  return Object.entries(scenario)
    .map(([key, value]) => `${key}="${String(value)}"`)
    .join(', ');
}
